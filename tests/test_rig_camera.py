"""The rig view's camera: the whole animation in view for every shared asset, a joint on request.

Oracle: every vertex and joint of the spec player's pose at every frame of
the animation (the frames at the file's sampling rate and half-way between
them; the rig's own evaluation and skinning), projected with the view's
own matrices, lies inside the viewport. Framing only the first frame hid
BoxAnimated's inner box as it rose and clipped AnimatedTriangle as it
turned.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtWidgets

from quatlab.app.model.rig_playback import sampling_rate
from quatlab.app.model.rig_players import evaluate
from quatlab.app.model.skinning import joint_set, skin_meshes
from quatlab.app.qt import keyframes_view as KV

DATA = Path(__file__).resolve().parent / "data"
SHARED = [DATA / "gltf" / name for name in (
    "AnimatedTriangle.gltf", "BoxAnimated.gltf", "CesiumMan.glb", "CesiumMilkTruck.glb",
    "Fox.glb", "InterpolationTest.glb", "RiggedFigure.gltf", "RiggedSimple.gltf",
    "RobotExpressive.glb")] + [DATA / "bvh" / "test_mocapbank.bvh",
                               DATA / "bvh" / "test_freebvh.bvh"]


@pytest.fixture
def view(keyframes_window) -> KV.KeyframesView:
    return keyframes_window.views["keyframes"]


def frame_points(rig, anim, t: float) -> np.ndarray:
    pose = evaluate(rig, anim, t)
    pts = [m.vertices for m in skin_meshes(rig, pose)]
    pts.append(pose.world[joint_set(rig), :3, 3])
    pts = np.concatenate(pts)
    return pts if len(pts) else pose.world[:, :3, 3]


def every_frame(anim) -> np.ndarray:
    fps = sampling_rate(anim)
    frames = np.arange(anim.start, anim.end + 0.5 / fps, 1.0 / fps)
    frames = np.clip(frames, anim.start, anim.end)
    return np.union1d(frames, 0.5 * (frames[1:] + frames[:-1]))


def assert_all_in_view(scene, rig, anim) -> np.ndarray:
    w, h = scene.width(), scene.height()
    seen = []
    for t in every_frame(anim):
        px = scene.project(frame_points(rig, anim, float(t)))
        assert np.all(np.isfinite(px))
        assert px[:, 0].min() >= 0 and px[:, 0].max() <= w, (t, px[:, 0].min(), px[:, 0].max(), w)
        assert px[:, 1].min() >= 0 and px[:, 1].max() <= h, (t, px[:, 1].min(), px[:, 1].max(), h)
        seen.append(px.min(axis=0))
        seen.append(px.max(axis=0))
    seen = np.array(seen)
    return seen.max(axis=0) - seen.min(axis=0)  # the span on screen, px


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_the_camera_frames_every_vertex_of_every_frame(view, path):
    view.open(path)
    panel = view.rig_panel
    assert panel.wait_framed()
    pb, scene = view.playback, panel.scene
    assert pb.swept()
    span = assert_all_in_view(scene, pb.rig, pb.animation)
    # ... and fills the view: no figure in a twentieth of it.
    assert span[0] > 0.45 * scene.width() or span[1] > 0.45 * scene.height(), span


def test_another_animation_gets_its_own_box(view):
    view.open(DATA / "gltf" / "RobotExpressive.glb")
    panel = view.rig_panel
    assert panel.wait_framed()
    pb = view.playback
    jump = next(a.index for a in pb.rig.animations if a.name == "Jump")
    panel.animation_box.setCurrentIndex(jump)
    assert panel.wait_framed()
    assert pb.animation_index == jump and pb.swept()
    assert_all_in_view(panel.scene, pb.rig, pb.animation)


def test_a_moved_camera_stays_put_and_r_frames_the_whole_animation_again(view):
    view.open(DATA / "gltf" / "BoxAnimated.gltf")
    panel = view.rig_panel
    assert panel.wait_loaded()
    scene = panel.scene
    scene.setCameraParams(distance=0.3 * scene.opts["distance"])
    scene._camera_touched = True  # as a wheel zoom does (UserCamera)
    assert panel.wait_framed()
    assert scene._camera_touched
    panel.frame_all()
    assert_all_in_view(scene, view.playback.rig, view.playback.animation)


def test_frame_joint_looks_at_the_joint_and_what_hangs_from_it(view):
    view.open(DATA / "gltf" / "RobotExpressive.glb")
    panel = view.rig_panel
    assert panel.wait_framed()
    pb, scene = view.playback, panel.scene
    rig = pb.rig
    whole = scene.opts["distance"]
    head = next(i for i, n in enumerate(rig.names) if n == "Head")
    assert panel.frame_joint(int(rig.gltf_index[head]))
    QtWidgets.QApplication.processEvents()
    assert scene.opts["distance"] < 0.7 * whole  # closer than the whole animation
    # The head joint is in the middle third of the view, the whole head in view.
    pose = pb.frame().spec
    (x, y), = scene.project(pose.world[[head], :3, 3])
    w, h = scene.width(), scene.height()
    assert w / 4 < x < 3 * w / 4 and h / 4 < y < 3 * h / 4
    from quatlab.app.model.rig_bounds import descendants
    px = scene.project(pose.world[descendants(rig, head), :3, 3])
    assert px[:, 0].min() >= 0 and px[:, 0].max() <= w
    assert px[:, 1].min() >= 0 and px[:, 1].max() <= h
    # A new box does not take the framed joint away; R frames everything again.
    pb.set_swept(pb.animation_index, pb.bounds())
    assert scene.opts["distance"] < 0.7 * whole
    panel.frame_all()
    assert scene.opts["distance"] == pytest.approx(whole)
    assert not panel.frame_joint(10 ** 6)  # no such node: nothing changes
    assert scene.opts["distance"] == pytest.approx(whole)
