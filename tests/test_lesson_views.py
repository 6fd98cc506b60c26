"""The issue-5 lesson views: models drive plots and chains, controls change state and pixels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtGui

from quatlab.app import lesson_models as LM

ROOT = Path(__file__).resolve().parents[1]


def _grab(scene) -> np.ndarray:
    img = scene.grabFramebuffer().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).copy()


def _show(qtbot, view):
    qtbot.addWidget(view)
    view.resize(1000, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def _plotted(view, plot, name):
    x, y = view.plots.curve_item(plot, name).getData()
    return np.asarray(x), np.asarray(y)


def _assert_same(got, want):
    got, want = np.asarray(got, float), np.asarray(want, float)
    assert got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok])


def test_models_import_no_qt():
    code = ("import sys, quatlab.app.lesson_models; "
            "bad = [m for m in sys.modules if m.startswith(('PyQt6', 'pyqtgraph', 'OpenGL'))]; "
            "assert not bad, bad")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT.parent)
    assert proc.returncode == 0, proc.stderr


def test_views_are_offered_by_the_window():
    from quatlab.app.window import view_names

    assert {"squad", "euler", "blend"} <= set(view_names())


# --------------------------------------------------------------------------- track


@pytest.fixture
def track_view(qtbot):
    from quatlab.app.track_view import TrackView

    return _show(qtbot, TrackView(LM.TrackModel("negated_key")))


def test_track_plots_are_the_model_arrays(track_view):
    tr = track_view.model.track
    for name in LM.TrackModel.SHOWN:
        x, y = _plotted(track_view, "angle", name)
        _assert_same(x, tr.t)
        _assert_same(y, tr[name].angle_deg)
        _, s = _plotted(track_view, "speed", name)
        _assert_same(s, tr[name].speed_deg)
    lines = track_view.plots._key_lines["angle"]
    assert [ln.value() for ln in lines] == pytest.approx(tr.times)


def test_track_slider_and_preset_change_state_and_pixels(qtbot, track_view):
    m = track_view.model
    before = _grab(track_view.scene)
    track_view.slider.slider.setValue(100)
    assert m.param == pytest.approx(0.3)
    assert track_view.plots.cursor() == pytest.approx(0.3)
    moved = _grab(track_view.scene)
    assert np.any(moved != before)
    assert "off the sign-aware one" in track_view.explanation.text()
    i = track_view.preset_box.findData("gltf_animated_triangle")
    track_view.preset_box.setCurrentIndex(i)
    assert m.preset == "gltf_animated_triangle"
    assert m.param_range == (0.0, 1.0)
    _assert_same(_plotted(track_view, "angle", "squad")[1], m.track["squad"].angle_deg)
    assert np.any(_grab(track_view.scene) != moved)


def test_track_tangent_option_recomputes(track_view):
    m = track_view.model
    m.set_preset("uneven_times")
    uniform = m.track["squad"].speed_deg.copy()
    track_view.tangents.setChecked(True)
    assert m.time_scaled
    assert not np.allclose(uniform, m.track["squad"].speed_deg)
    assert "time-scaled" in track_view.explanation.text()


# --------------------------------------------------------------------------- euler


@pytest.fixture
def euler_view(qtbot):
    from quatlab.app.euler_view import EulerView

    return _show(qtbot, EulerView(LM.EulerModel("yaw_wrap")))


def test_euler_plots_are_the_model_arrays(euler_view):
    c = euler_view.model.comparison
    _assert_same(_plotted(euler_view, "angle", "euler")[1], np.degrees(c.euler_angle))
    _assert_same(_plotted(euler_view, "angle", "slerp")[1], np.degrees(c.slerp_angle))
    _assert_same(_plotted(euler_view, "speed", "yaw")[1], np.degrees(c.slerp_euler[:, 0]))
    wraps = [ln.value() for ln in euler_view.plots._key_lines["angle"]]
    assert wraps == pytest.approx(euler_view.model.wrap_times())
    assert len(wraps) == 1
    assert "wraps across ±180°" in euler_view.explanation.text()


def test_euler_lock_text_and_pixels(euler_view):
    before = _grab(euler_view.scene)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("seed004_lock"))
    text = euler_view.explanation.text()
    assert "Gimbal lock" in text and "only yaw − roll matters (= 20.0°)" in text
    assert np.any(_grab(euler_view.scene) != before)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("near_lock"))
    assert "Gimbal lock" not in euler_view.explanation.text()
    assert "5.0° from the lock" in euler_view.explanation.text()
    before = _grab(euler_view.scene)
    euler_view.slider.spin.setValue(0.1)
    assert euler_view.model.param == pytest.approx(0.1)
    assert np.any(_grab(euler_view.scene) != before)


# --------------------------------------------------------------------------- blend


@pytest.fixture
def blend_view(qtbot):
    from quatlab.app.blend_view import BlendView

    return _show(qtbot, BlendView(LM.BlendModel("reference_switch")))


def test_blend_plots_markers_and_controls(blend_view):
    m = blend_view.model
    for v in m.VARIANTS:
        x, y = _plotted(blend_view, "angle", v)
        _assert_same(x, m.s)
        _assert_same(y, np.degrees(getattr(m.sweep, f"{v}_angle")))
    _assert_same(_plotted(blend_view, "speed", "reference")[1], m.sweep.reference)
    assert [ln.value() for ln in blend_view.plots._key_lines["angle"]] == pytest.approx([1.0])
    assert "reference is pose 1" in blend_view.explanation.text()
    before = _grab(blend_view.scene)
    blend_view.slider.spin.setValue(0.2)
    assert m.param == pytest.approx(0.2)
    assert "reference is pose 0" in blend_view.explanation.text()
    assert np.any(_grab(blend_view.scene) != before)
    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("negated_input"))
    assert m.preset == "negated_input"
    _assert_same(_plotted(blend_view, "angle", "naive")[1], np.degrees(m.sweep.naive_angle))
