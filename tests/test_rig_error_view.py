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
    assert view.rig_panel.wait_framed()
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


# --------------------------------------------------------------------------- the paths in 3D


def _turn_about(points: np.ndarray, centre: np.ndarray, axis: np.ndarray) -> float:
    """Degrees a polyline winds about ``axis`` through ``centre`` (signed, right-handed)."""
    r = points - centre
    r = r - np.outer(r @ axis, axis)
    a, b = r[:-1], r[1:]
    return float(np.degrees(np.arctan2(np.cross(a, b) @ axis, np.einsum("ij,ij->i", a, b)).sum()))


def _drawn_paths(scene, sweep) -> dict[str, np.ndarray]:
    """Each player's path line of ``sweep`` as handed to GL (its ticks and arrows left out)."""
    from quatlab.rendering.rig_meshes import Y_UP

    pos = np.asarray(scene.sweep_items.paths.pos) @ Y_UP[:3, :3]  # view frame -> glTF
    return {player: pos[start:start + n_line]
            for s, player, start, n_line, _ in scene.sweep_items.layout if s is sweep}


def test_the_truck_wheels_paths_turn_opposite_ways_over_the_flip(view):
    open_rig(view, TRUCK)
    pb, scene = view.playback, view.rig_panel.scene
    t0, t1 = flagged_segment(view, 0)
    pb.set_time(0.5 * (t0 + t1))
    QtWidgets.QApplication.processEvents()
    sweeps = scene.sweep_items.sweeps
    rig = pb.rig
    wheels = [s for s in sweeps if rig.names[s.node] == "Wheels"]
    assert len(wheels) == 1 and scene.sweep_items.paths.visible()
    sweep = wheels[0]
    # The axle in the world, through the centre of the marker's circle (the rig's own pose).
    world = pb.frame().spec.world[sweep.node]
    axis = world[:3, :3] @ sweep.axis
    axis /= np.linalg.norm(axis)
    centre = (world @ np.append((sweep.marker @ sweep.axis) * sweep.axis, 1.0))[:3]
    # What was drawn: the line pairs of each path, wound about the axle.
    turns = {player: sum(_turn_about(pair, centre, axis) for pair in pts.reshape(-1, 2, 3))
             for player, pts in _drawn_paths(scene, sweep).items()}
    assert turns["spec"] == pytest.approx(11.66, abs=0.1)
    assert turns["naive"] == pytest.approx(-348.3, abs=0.1)
    assert np.sign(turns["spec"]) == -np.sign(turns["naive"])  # opposite ways round


def test_the_paths_show_in_and_around_the_segment_and_go_after_the_fix(view):
    open_rig(view, TRUCK)
    pb, scene = view.playback, view.rig_panel.scene
    t0, t1 = flagged_segment(view, 0)

    def shown_at(t: float) -> bool:
        pb.set_time(t)
        QtWidgets.QApplication.processEvents()
        return bool(scene.sweep_items.sweeps) and scene.sweep_items.paths.visible()

    # Inside the segment, and a moment (0.3 s) either side of it: a 1/24 s
    # segment no longer flashes by in playback.
    assert shown_at(t0 + 0.01) and shown_at(t0 - 0.2) and shown_at(t1 + 0.2)
    assert not shown_at(t0 - 0.45) and not shown_at(t1 + 0.45)
    pb.set_time(0.5 * (t0 + t1))
    QtWidgets.QApplication.processEvents()
    # Pixels: the spec player's path and spoke are the only things in its colour
    # (the truck has no bones; the axis gizmos' green is yellower).
    assert spec_pixels(scene) > 40
    view.model.fix_signs(None)
    QtWidgets.QApplication.processEvents()
    assert not scene.sweep_items.sweeps and not scene.sweep_items.paths.visible()
    assert spec_pixels(scene) < 5


def spec_pixels(scene) -> int:
    from PyQt6 import QtGui

    from quatlab.rendering.rig_scene import SPEC_COLOR

    img = scene.grabFramebuffer().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    rgb = rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)
    want = np.array(QtGui.QColor(SPEC_COLOR).getRgb()[:3])
    return int(np.count_nonzero(np.abs(rgb - want).max(axis=2) < 30))


def test_the_naive_onion_skin_holds_the_robot_heads_long_way(view):
    open_rig(view, ROBOT)
    track = next(k for k, tr in enumerate(view.model.tracks)
                 if tr.node_name == "Head" and view.model.findings(k))
    view.model.select_track(track)
    view.rig_panel.wait_loaded()
    pb, scene = view.playback, view.rig_panel.scene
    t0, t1 = flagged_segment(view, track)
    pb.set_time(t1 + 0.15)  # after the segment: the players agree again ...
    QtWidgets.QApplication.processEvents()
    assert not pb.frame().differs
    # ... yet the naive runtime's poses across the segment are still drawn.
    onion = scene._meshes.onions[False]
    assert onion.visible() and len(onion._geometry.vertexes) > 0
    heads = [s for s in scene.sweep_items.sweeps if pb.rig.names[s.node] == "Head"]
    assert heads and abs(heads[0].turned("naive") - heads[0].turned("spec")) > 300
