"""The "Euler wrap vs double cover" lesson: model against scipy and hand-worked turns, view pixels.

Hand-worked: yaw 170 -> -170 about Z (order ZXY, fixed 20 deg pitch) is a
20 deg turn about the world Z axis; per-channel lerp walks 340 deg of yaw,
and naive NLERP of keys 20 deg apart with a flipped sign turns 360 - 20.
"""

from __future__ import annotations

import numpy as np
import pytest
from bvh_oracle import MOCAPBANK, motion_of, rotation_columns
from scipy.spatial.transform import Rotation
from test_lesson_views import _grab
from text_layout import as_read

from quatlab.app.model.wrap_lesson import METHODS, PRESETS, WrapModel


def rot(q_wxyz) -> Rotation:
    q = np.asarray(q_wxyz, dtype=float)
    return Rotation.from_quat(np.concatenate([q[..., 1:], q[..., :1]], axis=-1))


def turn_deg(a: Rotation, b: Rotation) -> np.ndarray:
    return np.degrees((a.inv() * b).magnitude())


# --------------------------------------------------------------------------- model


def test_the_mocap_preset_is_the_files_wrap():
    cols, order = rotation_columns(MOCAPBANK)["LeftHip"]
    frames = motion_of(MOCAPBANK)[210:212][:, cols]
    p = PRESETS["mocap_lefthip"]
    assert p["order"] == order
    np.testing.assert_array_equal([p["start_deg"], p["end_deg"]], frames)
    assert abs(frames[1, 0] - frames[0, 0]) > 180         # the wrap itself


@pytest.mark.parametrize("preset", list(PRESETS))
def test_paths_against_scipy(preset):
    c = WrapModel(preset).comparison
    p = PRESETS[preset]
    r0 = Rotation.from_euler(p["order"], p["start_deg"], degrees=True)
    r1 = Rotation.from_euler(p["order"], p["end_deg"], degrees=True)
    # The keys are the two poses; stored in opposite hemispheres.
    assert turn_deg(rot(c.q0), r0) < 1e-9 and turn_deg(rot(c.q1), r1) < 1e-9
    assert np.dot(c.q0, c.q1) < 0
    lerped = np.asarray(p["start_deg"]) + c.t[:, None] * (np.subtract(p["end_deg"],
                                                                       p["start_deg"]))
    want = Rotation.from_euler(p["order"], lerped, degrees=True)
    assert np.max(turn_deg(rot(c.quats["euler"]), want)) < 1e-9
    # SLERP: the shortest arc, at constant speed, ending at the second pose.
    short = turn_deg(r0, r1)
    np.testing.assert_allclose(turn_deg(r0, rot(c.quats["slerp"])), c.t * short, atol=1e-7)
    assert c.swept["slerp"] == pytest.approx(short, abs=1e-6)
    # Naive NLERP of the stored components goes the long way.
    assert c.swept["naive"] == pytest.approx(360 - short, abs=0.5)
    assert turn_deg(rot(c.quats["naive"][-1]), r1) < 1e-9


def test_yaw_wrap_by_hand():
    c = WrapModel("yaw_wrap").comparison
    assert c.swept["euler"] == pytest.approx(340.0, abs=1e-6)
    assert c.swept["slerp"] == pytest.approx(20.0, abs=1e-9)
    assert c.angle["euler"][-1] == pytest.approx(340.0, abs=1e-6)   # the long way, not 20
    np.testing.assert_allclose(c.speed["euler"], 340.0, rtol=1e-6)
    np.testing.assert_allclose(c.speed["slerp"], 20.0, rtol=1e-6)


def test_the_naive_nlerp_peak_is_the_two_key_lessons():
    """Keys 170 deg apart in 4D (dot cos 170 deg): at t = 0.5 the blend's squared norm
    is (1 + cos W) / 2 and NLERP turns at 2 sin W / that, 2,619.6 deg/t, as the
    two-key lesson says for the same keys; differences of the samples said 2,612."""
    c = WrapModel("yaw_wrap").comparison
    w = np.arccos(c.key_dot)  # NLERP runs from q0 to the q1 it was given
    peak = np.degrees(2.0 * np.sin(w) / ((1.0 + np.cos(w)) / 2.0))
    assert peak == pytest.approx(2619.6, abs=0.1)  # W = 170 deg by hand
    assert np.nanmax(c.speed["naive"]) == pytest.approx(peak, rel=1e-9)


def test_explanation_names_both_families():
    m = WrapModel("mocap_lefthip")
    text = m.explanation()
    assert "R<sup>3</sup>" in text and "S<sup>3</sup>" in text
    assert "representation jump" in text and "<i>sign</i>" in text
    assert "frame-by-frame conversion" in text          # the file's wrap flipped the sign
    m.set_param(0.5)
    # NLERP's midpoint bisects the long arc of (360 - 0.17) deg; the Euler lerp is half way too.
    assert "Euler lerp is 180.0°" in m.explanation()
    assert m.angles_at_param()["naive"] == pytest.approx((360 - m.comparison.swept["slerp"]) / 2)


# --------------------------------------------------------------------------- view


@pytest.fixture
def view(qtbot):
    from quatlab.app.qt.wrap_view import WrapView

    v = WrapView(WrapModel())
    qtbot.addWidget(v)
    v.resize(1400, 1100)
    v.show()
    qtbot.waitExposed(v)
    return v


def test_registered_in_the_window():
    from quatlab.app.qt.window import view_names

    assert "wrap" in view_names()


def test_model_drives_the_widgets(view):
    m = view.model
    m.set_preset("mocap_lefthip")
    assert view.preset_box.currentData() == "mocap_lefthip"
    c = m.comparison
    for plot, values in (("angle", c.angle), ("speed", c.speed)):
        for k in METHODS:
            x, y = view.plots.curve_item(plot, k).getOriginalDataset()  # as handed to the plot
            np.testing.assert_allclose(x, c.t)
            np.testing.assert_allclose(y, values[k])
    m.set_param(0.8)
    assert view.slider.spin.value() == pytest.approx(0.8)
    assert view.plots.cursor() == pytest.approx(0.8)
    assert "At t = 0.80" in as_read(view.explanation.text())


def test_widgets_drive_the_model(view):
    view.preset_box.setCurrentIndex(view.preset_box.findData("triple_switch"))
    assert view.model.preset == "triple_switch"
    assert "other Euler triple" in as_read(view.explanation.text())
    view.slider.spin.setValue(0.2)
    assert view.model.param == pytest.approx(0.2)


def _overlap(view, key, t0, t1) -> tuple[float, int]:
    """Intersection over union of the pixels chain ``key`` covers at t0 and at t1, and its size.

    A chain that turned by a fraction of a degree covers nearly the same
    pixels (overlap near 1); one that spun half a turn covers others (near 0).
    """
    for k in METHODS:
        view.scene.set_chain_visible(k, False)
        # Only the chains are compared: the tip labels move with the tips, and
        # the trails (the whole path) are the same at every t.
        view.scene.set_label(k, "")
        view.scene.set_path(k, None)
    empty = _grab(view.scene)
    view.scene.set_chain_visible(key, True)
    masks = []
    for t in (t0, t1):
        view.model.set_param(t)
        masks.append(np.any(_grab(view.scene) != empty, axis=-1))
    a, b = masks
    return float(np.count_nonzero(a & b) / np.count_nonzero(a | b)), int(np.count_nonzero(a))


def test_the_wrapped_chain_visibly_spins(view):
    view.model.set_preset("mocap_lefthip")
    spin, size = _overlap(view, "euler", 0.0, 0.5)      # half of a 359.9 deg spin
    assert size > 300 and spin < 0.2, (spin, size)
    still, _ = _overlap(view, "slerp", 0.0, 0.5)         # half of a 0.17 deg turn
    assert still > 0.7, still
    naive, _ = _overlap(view, "naive", 0.0, 0.5)         # the middle of the snap: half way round
    assert naive < 0.2, naive
    back, _ = _overlap(view, "naive", 0.0, 0.6)          # after the snap: back near the start
    assert back > 0.5, back
