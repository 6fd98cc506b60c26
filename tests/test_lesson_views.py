"""The lesson views: models drive plots and chains, controls change state and pixels."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets
from text_layout import as_read

from quatlab.app.model.blend_lesson import BlendModel
from quatlab.app.model.euler_lesson import EulerModel
from quatlab.app.model.integrate_lesson import IntegrateModel
from quatlab.app.model.track_lesson import TrackModel
from quatlab.app.qt.track_view import COLUMNS as TV_COLUMNS
from quatlab.math import track as T
from quatlab.math import track_presets as TP
from quatlab.math.quaternion import angle_between

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
    # A lesson arranges itself a turn of the event loop after a resize (the column
    # of controls, shown or folded for the size): grabs compare the settled view.
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)
    return view


def _plotted(view, plot, name):
    # The data handed to the plot; what is drawn of a long run is its min/max
    # envelope per pixel column (tests/test_plot_display.py).
    x, y = view.plots.curve_item(plot, name).getOriginalDataset()
    return np.asarray(x), np.asarray(y)


def _assert_same(got, want):
    got, want = np.asarray(got, float), np.asarray(want, float)
    assert got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok])


def test_views_are_offered_by_the_window():
    from quatlab.app.qt.window import view_names

    assert {"squad", "euler", "blend", "integrate"} <= set(view_names())


# --------------------------------------------------------------------------- track


@pytest.fixture
def track_view(qtbot):
    from quatlab.app.qt.track_view import TrackView

    return _show(qtbot, TrackView(TrackModel("negated_key")))


def test_track_plots_are_the_model_arrays(track_view):
    tr = track_view.model.track
    for name in TrackModel.SHOWN:
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
    assert "off the sign-aware one" in as_read(track_view.explanation.text())
    i = track_view.preset_box.findData("gltf_animated_triangle")
    track_view.preset_box.setCurrentIndex(i)
    assert m.preset == "gltf_animated_triangle"
    assert m.param_range == (0.0, 1.0)
    _assert_same(_plotted(track_view, "angle", "squad")[1], m.track["squad"].angle_deg)
    assert np.any(_grab(track_view.scene) != moved)


def test_lesson_scene_is_laid_out_through_its_container(qtbot, track_view):
    # The 3D view is a native GL window: the layout holds its container,
    # which carries the name, and the window follows the container's size.
    box = track_view.scene.widget
    assert track_view.findChild(QtWidgets.QWidget, "scene") is box
    assert box.height() > 300
    qtbot.waitUntil(lambda: track_view.scene.size() == box.size())


def test_track_tangent_option_recomputes(track_view):
    m = track_view.model
    m.set_preset("uneven_times")
    uniform = m.track["squad"].speed_deg.copy()
    track_view.tangents.setChecked(True)
    assert m.time_scaled
    assert not np.allclose(uniform, m.track["squad"].speed_deg)
    assert "time-scaled" in as_read(track_view.explanation.text())


def _assert_track_plotted(view, times, keys):
    """Plots and key lines are math.track's arrays for ``times``/``keys``, computed afresh."""
    m = view.model
    want = T.compute_track(times, keys)
    np.testing.assert_array_equal(m.times, times)
    np.testing.assert_array_equal(m.keys, keys)
    for name in TrackModel.SHOWN:
        x, y = _plotted(view, "angle", name)
        _assert_same(x, want.t)
        _assert_same(y, want[name].angle_deg)
        _assert_same(_plotted(view, "speed", name)[1], want[name].speed_deg)
    assert [ln.value() for ln in view.plots._key_lines["angle"]] == pytest.approx(times)


class _Cell:
    """One cell of the key table, read and typed into as the table's editor does."""

    def __init__(self, view, row, col):
        self.editor, self.row, self.col = view.keys, row, col

    def text(self) -> str:
        return self.editor.table.model().index(self.row, self.col).data()

    def setText(self, text: str) -> None:  # noqa: N802 - QTableWidgetItem's spelling
        model = self.editor.table.model()
        model.setData(model.index(self.row, self.col), text)


def _cell(view, row, col):
    return _Cell(view, row, col)


def _click_cell(qtbot, table, row, col):
    table.scrollTo(table.model().index(row, col))
    rect = table.visualRect(table.model().index(row, col))
    qtbot.mouseClick(table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())


def test_track_shows_piecewise_nlerp(track_view):
    assert "nlerp" in TrackModel.SHOWN
    assert "piecewise NLERP" in track_view.legend.text()
    _assert_same(_plotted(track_view, "angle", "nlerp")[1],
                 track_view.model.track["nlerp"].angle_deg)


def test_track_key_table_edits_model_and_plots(track_view):
    m, table = track_view.model, track_view.keys.table
    assert table.model().rowCount() == 4
    assert float(_cell(track_view, 1, 4).text()) == pytest.approx(m.keys[1, 3], rel=1e-5)
    _cell(track_view, 1, 2).setText("0.5")            # key 1's x, as typed
    keys = TP.preset_track("negated_key")[1].copy()
    keys[1, 1] = 0.5
    _assert_track_plotted(track_view, [0.0, 1.0, 2.0, 3.0], keys)
    assert _cell(track_view, 1, 2).text() == "0.5"
    assert "Keys edited" in as_read(track_view.explanation.text())
    _cell(track_view, 2, 0).setText("2.5")            # key 2's time
    _assert_track_plotted(track_view, [0.0, 1.0, 2.5, 3.0], keys)


@pytest.mark.parametrize("row, col, text, why", [
    (2, 0, "0.5", "strictly between"),     # time before key 1
    (3, 0, "nan", "finite"),
    (1, 1, "abc", "not a number"),
])
def test_track_refused_edits_keep_the_last_valid_value(track_view, row, col, text, why):
    m = track_view.model
    times, keys, before = m.times.copy(), m.keys.copy(), _cell(track_view, row, col).text()
    _cell(track_view, row, col).setText(text)
    assert why in track_view.keys.message.text()
    np.testing.assert_array_equal(m.times, times)
    np.testing.assert_array_equal(m.keys, keys)
    assert _cell(track_view, row, col).text() == before


def test_track_zero_key_is_refused(track_view):
    m = track_view.model
    m.set_key(0, [1e-3, 0, 0, 0])                      # tiny is fine: it normalizes
    keys = m.keys.copy()
    _cell(track_view, 0, 1).setText("0")
    assert "non-zero" in track_view.keys.message.text()
    np.testing.assert_array_equal(m.keys, keys)
    _cell(track_view, 0, 1).setText("1")               # a valid edit clears the message
    assert track_view.keys.message.text() == ""


def test_track_negate_button_moves_only_the_sign_unaware_squad(qtbot, track_view):
    m = track_view.model
    m.set_preset("four_keys")
    before = m.track
    assert np.nanmax(before.deviation("squad", "squad_unaware")) < 1e-9
    _click_cell(qtbot, track_view.keys.table, 2, len(TV_COLUMNS) - 1)    # key 2's −q
    assert m.keys[2] == pytest.approx(-TP.preset_track("four_keys")[1][2])
    assert float(_cell(track_view, 2, 1).text()) < 0
    after = m.track
    for name in ("slerp", "squad", "nlerp"):      # the same rotations, sample by sample
        assert np.max(angle_between(before[name].quats, after[name].quats)) < 1e-9
    assert np.degrees(np.nanmax(after.deviation("squad", "squad_unaware"))) > 10
    _assert_track_plotted(track_view, m.times, m.keys)
    assert "off the sign-aware one" in as_read(track_view.explanation.text())


def test_track_add_and_remove_keys(qtbot, track_view):
    m, kv = track_view.model, track_view.keys
    qtbot.mouseClick(kv.add_button, QtCore.Qt.MouseButton.LeftButton)
    assert len(m.times) == kv.table.model().rowCount() == 5
    assert m.times[-1] == pytest.approx(4.0)
    assert m.param_range == (0.0, 4.0)
    _assert_track_plotted(track_view, m.times, m.keys)
    kv.table.selectRow(1)
    qtbot.mouseClick(kv.remove_button, QtCore.Qt.MouseButton.LeftButton)
    assert m.times.tolist() == [0.0, 2.0, 3.0, 4.0]
    qtbot.mouseClick(kv.remove_button, QtCore.Qt.MouseButton.LeftButton)   # none selected: last
    assert len(m.times) == 3 and not kv.remove_button.isEnabled()
    with pytest.raises(ValueError, match="at least 3"):
        m.remove_key(0)
    _assert_track_plotted(track_view, m.times, m.keys)


def test_track_load_track_from_the_keyframes_tab(qtbot, monkeypatch):
    import quatlab.app.qt.window as window_module
    from quatlab.app.io.keyframe_files import load_keyframes
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt import keyframes_view as KV
    from quatlab.app.qt import track_view as TV

    monkeypatch.setattr(window_module, "_view_modules", lambda: [KV, TV])
    win = window_module.MainWindow(LessonState.from_preset("negated-20", t=0.25))
    _show(qtbot, win)
    path = ROOT / "tests" / "data" / "gltf" / "AnimatedTriangle.gltf"
    kf = win.views["keyframes"]
    assert not kf.squad_button.isEnabled()
    win.open_keyframes(path)
    kf.model.select_track(0)
    assert kf.squad_button.isEnabled()
    qtbot.mouseClick(kf.squad_button, QtCore.Qt.MouseButton.LeftButton)
    assert win.current_view() is win.views["squad"]
    track = load_keyframes(path).tracks[0]
    m = win.views["squad"].model
    assert len(m.times) == 5
    np.testing.assert_array_equal(m.times, track.times)
    np.testing.assert_array_equal(m.keys, track.values)
    assert m.name and m.name in as_read(win.views["squad"].explanation.text())
    assert win.views["squad"].keys.table.model().rowCount() == 5
    assert np.degrees(np.nanmax(m.track.deviation("squad", "squad_unaware"))) > 20


# --------------------------------------------------------------------------- euler


@pytest.fixture
def euler_view(qtbot):
    from quatlab.app.qt.euler_view import EulerView

    return _show(qtbot, EulerView(EulerModel("yaw_wrap")))


def test_euler_plots_are_the_model_arrays(euler_view):
    c = euler_view.model.comparison
    _assert_same(_plotted(euler_view, "angle", "euler")[1], np.degrees(c.euler_angle))
    _assert_same(_plotted(euler_view, "angle", "slerp")[1], np.degrees(c.slerp_angle))
    _assert_same(_plotted(euler_view, "speed", "angle0")[1], np.degrees(c.slerp_euler[:, 0]))
    wraps = [ln.value() for ln in euler_view.plots._key_lines["angle"]]
    assert wraps == pytest.approx(euler_view.model.wrap_times())
    assert len(wraps) == 1
    assert "wraps across ±180°" in as_read(euler_view.explanation.text())


def test_a_path_passing_the_lock_leaves_out_its_one_undefined_readout(qtbot):
    """"Near the lock (pitch 85)": SLERP passes the gimbal lock at t = 0.5 only. There
    the first and last angles are any pair with the right difference; drawn, that
    sample made a spike to −180° off both branches, and the tab opened with its
    cursor on it. The sample is left out (scipy's readout of the same pose warns of
    the lock), the tab opens just before the jump, and a path lying in the lock
    throughout keeps its readout."""
    from scipy.spatial.transform import Rotation

    from quatlab.app.qt.euler_view import DEFAULT_PRESET, EulerView

    view = _show(qtbot, EulerView(EulerModel(DEFAULT_PRESET)))
    m = view.model
    assert DEFAULT_PRESET == "near_lock"
    c = m.comparison
    t, y = _plotted(view, "speed", "angle0")
    mid = int(np.argmin(np.abs(t - 0.5)))
    wxyz = c.slerp_quats[mid]
    with pytest.warns(UserWarning, match="[Gg]imbal"):
        Rotation.from_quat(np.roll(wxyz, -1)).as_euler("YXZ", degrees=True)
    assert np.isnan(y[mid]) and np.isnan(_plotted(view, "speed", "angle2")[1][mid])
    assert np.isfinite(_plotted(view, "speed", "angle1")[1][mid])
    assert np.isfinite(np.delete(y, mid)).all() and np.nanmin(np.abs(y)) > 45
    assert m.param == pytest.approx(0.45) and m.param < min(m.wrap_times())
    view.preset_box.setCurrentIndex(view.preset_box.findData("pitch90_lock"))
    assert np.isfinite(_plotted(view, "speed", "angle0")[1]).all()


def test_euler_lock_text_and_pixels(euler_view):
    before = _grab(euler_view.scene)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("pitch90_lock"))
    text = as_read(euler_view.explanation.text())
    assert "Gimbal lock" in text and "only Y − Z″ matters (= 20.0°)" in text
    assert np.any(_grab(euler_view.scene) != before)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("near_lock"))
    assert "Gimbal lock" not in as_read(euler_view.explanation.text())
    assert "5.0° from the lock" in as_read(euler_view.explanation.text())
    before = _grab(euler_view.scene)
    euler_view.slider.spin.setValue(0.1)
    assert euler_view.model.param == pytest.approx(0.1)
    assert np.any(_grab(euler_view.scene) != before)


# --------------------------------------------------------------------------- blend


@pytest.fixture
def blend_view(qtbot):
    from quatlab.app.qt.blend_view import BlendView

    return _show(qtbot, BlendView(BlendModel("reference_switch")))


def _weight(view, i, value):
    """Move pose ``i``'s weight slider as a drag would (1000 steps over [0, 1])."""
    view.weight_sliders[i].slider.setValue(round(value * 1000))


def _chain_matrix(view, key):
    """World 4x4 of the root bone of chain ``key`` as the scene draws it."""
    return np.array(view.scene._chains[key].body.transform().matrix())


def test_blend_plots_markers_and_integer_ticks(blend_view):
    m = blend_view.model
    for v in m.VARIANTS:
        x, y = _plotted(blend_view, "angle", v)
        _assert_same(x, m.s)
        _assert_same(y, m.angles[v])
    _assert_same(_plotted(blend_view, "speed", "reference")[1], m.sweep.reference)
    assert [ln.value() for ln in blend_view.plots._key_lines["angle"]] == pytest.approx([1.0])
    axis = blend_view.plots.plots["speed"].getAxis("left")
    assert axis.labelText == "reference pose"
    assert axis._tickLevels[0] == [(0.0, "0"), (1.0, "1"), (2.0, "2")]
    # Hiding a curve refreshes the plots, which resets ticks: they must come back.
    blend_view.plots.set_method_visible("naive", False)
    assert axis._tickLevels[0] == [(0.0, "0"), (1.0, "1"), (2.0, "2")]


def test_blend_sliders_and_model_follow_each_other(blend_view):
    m = blend_view.model
    spins = [s.spin for s in blend_view.weight_sliders]
    assert [s.value() for s in spins] == pytest.approx([1.0, 0.5, 0.5])  # the preset's weights
    _weight(blend_view, 1, 0.25)
    assert m.weights == pytest.approx([1.0, 0.25, 0.5])
    assert spins[1].value() == pytest.approx(0.25)
    spins[2].setValue(0.8)
    assert m.weights[2] == pytest.approx(0.8)
    m.set_weight(0, 0.3)
    assert blend_view.weight_sliders[0].slider.value() == 300
    assert spins[0].value() == pytest.approx(0.3)
    # The sweep slider plays the preset's weights and moves the weight sliders.
    blend_view.slider.spin.setValue(0.5)
    assert m.weights == pytest.approx([0.5, 0.5, 0.5])
    assert [s.value() for s in spins] == pytest.approx([0.5, 0.5, 0.5])
    # Choosing a preset sets the sliders (and clears the −q toggles).
    blend_view.negate_boxes[0].setChecked(True)
    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("negated_input"))
    assert [s.value() for s in spins] == pytest.approx([0.5, 0.3, 0.2])
    assert not any(box.isChecked() for box in blend_view.negate_boxes)
    assert not m.negated.any()


def test_blend_results_are_math_blend_of_the_slider_weights(blend_view):
    from scipy.spatial.transform import Rotation

    from quatlab.math import blend as B
    from quatlab.math.quaternion import to_xyzw
    from quatlab.rendering.chain import ROOT

    m = blend_view.model
    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("negated_input"))
    for i, w in enumerate((0.2, 0.7, 0.4)):
        _weight(blend_view, i, w)
    w = np.array([0.2, 0.7, 0.4])
    q = m.quats
    want = {"blend": B.blend(q, w, reference=m.reference),
            "naive": B.naive_weighted_sum(q, w), "align_first": B.align_to_first(q, w)}
    for v, wq in want.items():
        np.testing.assert_allclose(m.at_param()[v], wq, atol=1e-12)
        # The chain drawn is that rotation: its root bone's frame is scipy's
        # matrix of the quaternion, hung from the variant's own root.
        frame = _chain_matrix(blend_view, v)
        np.testing.assert_allclose(frame[:3, :3], Rotation.from_quat(to_xyzw(wq)).as_matrix(),
                                   atol=1e-6)
        np.testing.assert_allclose(frame[:3, 3], blend_view.scene._chains[v].root, atol=1e-6)
    roots = {tuple(blend_view.scene._chains[v].root) for v in m.VARIANTS}
    assert len(roots) == 3 and tuple(ROOT) not in roots  # three results, apart
    # The preset's poses are within 90 deg of each other up to sign: the
    # aligned blends agree as rotations, the naive sum (pose 1 stored as -q)
    # does not.
    ang = {v: Rotation.from_quat(to_xyzw(want[v])) for v in want}
    assert (ang["blend"].inv() * ang["align_first"]).magnitude() < 1e-9
    assert np.degrees((ang["blend"].inv() * ang["naive"]).magnitude()) > 30
    # The input poses are drawn too, pale, each at its stored rotation.
    for i in range(3):
        frame = _chain_matrix(blend_view, f"pose{i}")
        np.testing.assert_allclose(frame[:3, :3], Rotation.from_quat(to_xyzw(q[i])).as_matrix(),
                                   atol=1e-6)


def test_blend_reference_switch_by_stable_index(blend_view):
    from quatlab.math.quaternion import angle_between

    m = blend_view.model
    assert m.reference == 0
    _weight(blend_view, 0, 0.01)
    before = m.at_param()["blend"].copy()
    assert m.reference == 0
    _weight(blend_view, 0, 0.0)
    assert m.reference == 1
    after = m.at_param()["blend"]
    # 0, 120, 240 deg about Z: aligned to pose 0 the blend is the identity,
    # aligned to pose 1 it is the half turn.
    assert np.degrees(angle_between(before, after)) == pytest.approx(180.0, abs=1.5)
    text = as_read(blend_view.explanation.text())
    assert "Pose 0's weight reached 0, so the reference passed to pose 1" in text
    assert "jumped 180.0°" in text
    assert "<b>reference</b>" in blend_view.pose_readouts[1].text()
    assert "reference" not in blend_view.pose_readouts[0].text()
    # Raising pose 0 again keeps pose 1: the same weights as at the start
    # give another result (81.8° off the identity, blend_sweep's docstring).
    _weight(blend_view, 0, 1.0)
    assert m.reference == 1
    off = np.degrees(angle_between(m.at_param()["blend"], [1, 0, 0, 0]))
    assert off == pytest.approx(81.8, abs=0.05)
    assert "does not switch back" in as_read(blend_view.explanation.text())
    # Next by stable index after pose 1 is pose 2, although pose 0 has weight.
    _weight(blend_view, 1, 0.0)
    assert m.reference == 2
    assert "passed to pose 2" in as_read(blend_view.explanation.text())


def test_blend_negated_pose_moves_the_naive_sum_only(blend_view):
    from quatlab.math.quaternion import angle_between

    m = blend_view.model
    old = m.at_param()
    readout = blend_view.pose_readouts[1].text()
    blend_view.negate_boxes[1].setChecked(True)
    assert m.negated.tolist() == [False, True, False]
    np.testing.assert_allclose(m.quats[1], -m.base_poses[1])
    new = m.at_param()
    assert np.degrees(angle_between(old["naive"], new["naive"])) > 30
    assert np.degrees(angle_between(old["blend"], new["blend"])) < 1e-6
    # Same axis-angle, the other stored sign of w.
    assert readout.replace("+0.50", "-0.50") == blend_view.pose_readouts[1].text()
    _assert_same(_plotted(blend_view, "angle", "naive")[1], m.angles["naive"])


def test_blend_weight_change_changes_pixels(blend_view):
    before = _grab(blend_view.scene)
    _weight(blend_view, 1, 0.0)
    assert np.any(_grab(blend_view.scene) != before)


def test_blend_all_weights_zero_shows_no_result(blend_view):
    for i in range(3):
        _weight(blend_view, i, 0.0)
    assert all(np.isnan(q).all() for q in blend_view.model.at_param().values())
    assert "nothing to blend" in as_read(blend_view.explanation.text())
    assert not blend_view.scene._chains["blend"].body.visible()


def test_euler_gimbal_rings_follow_the_euler_pose(euler_view):
    from quatlab.math.gimbal import gimbal_rings
    from quatlab.rendering.gimbal import ring_frames

    m, gimbal = euler_view.model, euler_view.gimbal
    for t in (0.5, 0.2):
        euler_view.slider.spin.setValue(t)
        rings = gimbal_rings(m.angles_at_param(), m.order)
        for k, item in enumerate(gimbal.rings):
            matrix = item.transform().matrix()
            # The torus is built about local +Z with its bearings on local +X:
            # the item's frame must put them on the ring's normal and pivot.
            np.testing.assert_allclose(matrix[:3, 2], rings.normals[k], atol=1e-6)
            np.testing.assert_allclose(matrix[:3, 0], rings.pivots[k], atol=1e-6)
            np.testing.assert_allclose(matrix[:3, 3], gimbal.center)
        np.testing.assert_allclose(
            [item.transform().matrix()[:3, :3] for item in gimbal.rings], ring_frames(rings),
            atol=1e-6)
    assert not gimbal.locked and not gimbal.lock_axis.visible()
    assert "locked" not in euler_view.gimbal_legend.text()


def test_euler_gimbal_lock_is_highlighted(euler_view):
    from quatlab.rendering.gimbal import ANGLE_COLOURS, LOCK_COLOUR

    before = _grab(euler_view.scene)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("pitch90_lock"))
    gimbal = euler_view.gimbal
    normals = np.array([item.transform().matrix()[:3, 2] for item in gimbal.rings])
    pivots = np.array([item.transform().matrix()[:3, 0] for item in gimbal.rings])
    # Pitch 90 in Y-X-Z: the outer (yaw) and inner (roll) rings turn about one
    # line, and the middle ring folds into the outer ring's plane.
    assert abs(pivots[0] @ pivots[2]) == pytest.approx(1.0)
    assert abs(normals[0] @ normals[1]) == pytest.approx(1.0)
    assert gimbal.locked and gimbal.lock_axis.visible()
    axis = gimbal.lock_axis.pos[1] - gimbal.lock_axis.pos[0]
    assert abs(axis @ pivots[0]) == pytest.approx(np.linalg.norm(axis), rel=1e-6)
    assert gimbal.colours == [LOCK_COLOUR, ANGLE_COLOURS[1], LOCK_COLOUR]
    assert "locked" in euler_view.gimbal_legend.text()
    assert "(highlighted)" in as_read(euler_view.explanation.text())
    assert np.any(_grab(euler_view.scene) != before)
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("near_lock"))
    assert not gimbal.locked
    assert gimbal.colours == list(ANGLE_COLOURS)


def test_euler_gimbal_checkbox_hides_the_rings(euler_view):
    shown = _grab(euler_view.scene)
    euler_view.show_gimbal.setChecked(False)
    assert not any(item.visible() for item in euler_view.gimbal.items())
    assert np.any(_grab(euler_view.scene) != shown)
    euler_view.show_gimbal.setChecked(True)
    assert all(item.visible() for item in euler_view.gimbal.rings)


def test_gimbal_ring_geometry_matches_gimbal_rings():
    from quatlab.math.gimbal import gimbal_rings
    from quatlab.rendering.gimbal import RADII, ring_frames, ring_points, torus

    rng = np.random.default_rng(5)
    for order in ("YXZ", "zxz", "XYZ"):
        rings = gimbal_rings(rng.uniform(-np.pi, np.pi, 3), order)
        frames = ring_frames(rings)
        np.testing.assert_allclose(frames @ np.swapaxes(frames, 1, 2), np.broadcast_to(
            np.eye(3), (3, 3, 3)), atol=1e-12)
        np.testing.assert_allclose(np.linalg.det(frames), 1.0)
        points = ring_points(rings, center=np.zeros(3))
        for k in range(3):
            # Each ring lies in its plane, at its radius, and passes through
            # its bearings on the pivot.
            np.testing.assert_allclose(points[k] @ rings.normals[k], 0.0, atol=1e-12)
            np.testing.assert_allclose(np.linalg.norm(points[k], axis=-1), RADII[k])
            np.testing.assert_allclose(points[k, 0], RADII[k] * rings.pivots[k], atol=1e-12)
    md = torus(1.0)
    v, n = md.vertexes(), md.vertexNormals()
    centre = v * [1, 1, 0]
    centre /= np.linalg.norm(centre, axis=-1, keepdims=True)
    assert np.all(np.einsum("ij,ij->i", v - centre, n) > 0)  # lit from outside


# --------------------------------------------------------------------------- integration


def test_integrate_model_is_the_math():
    from quatlab.math import integrate as I

    for key, p in I.PRESETS.items():
        m = IntegrateModel(key)
        assert m.param == p["steps"]  # a preset opens where the drift is largest
        want = I.integrate(p.get("q0", [1, 0, 0, 0]), np.radians(p["omega_deg_per_s"]), p["dt"],
                           p["steps"], frame=p["frame"], step=p.get("step", "exact"),
                           renormalize=p.get("renormalize", False))
        _assert_same(m.run.quats, want.quats)
        _assert_same(m.run.angle_error, want.angle_error)
        mat = I.accumulate_matrix(np.radians(p["omega_deg_per_s"]), p["dt"], p["steps"],
                                  frame=p["frame"], dtype=p.get("dtype", "float32"),
                                  reorthonormalize_every=p.get("reorthonormalize_every", 0),
                                  keep=p.get("keep", 0))
        _assert_same(m.matrix.orthonormality_error, mat.orthonormality_error)


def test_integrate_model_options_validate_and_keep_the_end():
    m = IntegrateModel("first_order_20hz")
    seen = []
    m.events.connect("data", lambda: seen.append("data"))
    m.set_steps(100)
    assert m.param == 100 and seen == ["data"]  # it was at the end: it stays there
    m.set_param(40.4)
    assert m.param == 40
    m.set_steps(300)
    assert m.param == 40
    with pytest.raises(ValueError, match="dt"):
        m.set_dt(-0.1)
    with pytest.raises(ValueError, match="steps"):
        m.set_steps(m.MAX_STEPS + 1)
    with pytest.raises(ValueError, match="keep"):
        m.set_keep(3)
    assert (m.dt, m.steps, m.keep) == (0.05, 300, 0)  # a bad value changes nothing
    assert len(m.run.quats) == 301
    m.set_preset("matrix_float32")
    assert m.reorthonormalize_every == 0 and m.param == 10_000
    m.set_reorthonormalize_every(1000)
    assert m.repair_steps().tolist() == list(range(1000, 10_001, 1000))


def test_integrate_explanation_has_the_numbers():
    m = IntegrateModel("first_order_20hz")
    text = m.explanation()
    assert text.startswith(IntegrateModel.PRESETS["first_order_20hz"]["description"])
    assert "|q| grew by 16.7% after 10.00 s" in text and "0.462° lag" in text
    assert "|q|² = 1.361" in text
    m.set_renormalize(True)
    text = m.explanation()
    assert "|q| stays 1" in text and "lags the exact spin by 0.462°" in text
    m.set_param(100)
    assert "by 0.231° after 5.00 s (step 100 of 200)" in m.explanation()
    assert "Options changed from “First-order step at 20 Hz" in m.explanation()
    m.set_step("exact")
    assert "only rounding is left" in m.explanation()
    assert "never re-orthonormalized" in m.explanation()
    m.set_reorthonormalize_every(20)
    assert "Gram-Schmidt every 20 steps (5 so far, keeping its x axis)" in m.explanation()


@pytest.fixture
def integrate_view(qtbot):
    from quatlab.app.qt.integrate_view import IntegrateView

    return _show(qtbot, IntegrateView(IntegrateModel("first_order_20hz")))


def _log_abs(y):
    y = np.abs(np.asarray(y, float))
    out = np.full(y.shape, np.nan)
    out[y > 0] = np.log10(y[y > 0])
    return out


def _assert_plots_are_the_model(view):
    m = view.model
    x, y = _plotted(view, "angle", "q")
    _assert_same(x, np.arange(m.steps + 1))
    # The drift plot is logarithmic: it draws log10 |y|, and an exact zero
    # (step 0) has no place on it.
    _assert_same(y, _log_abs(m.run.norm_drift))
    _assert_same(_plotted(view, "angle", "R")[1], _log_abs(m.matrix.orthonormality_error))
    assert view.plots.plots["angle"].getAxis("left").logMode
    _assert_same(_plotted(view, "speed", "q")[1], m.run.angle_error_deg)
    _assert_same(_plotted(view, "speed", "R")[1], np.degrees(m.matrix.angle_error))


def test_integrate_plots_are_the_model_arrays(integrate_view):
    _assert_plots_are_the_model(integrate_view)
    assert integrate_view.plots.cursor() == 200
    integrate_view.preset_box.setCurrentIndex(integrate_view.preset_box.findData("matrix_float32"))
    _assert_plots_are_the_model(integrate_view)
    assert integrate_view.plots._key_lines["angle"] == []
    integrate_view.every.setValue(500)
    _assert_plots_are_the_model(integrate_view)
    marks = [ln.value() for ln in integrate_view.plots._key_lines["angle"]]
    assert marks == integrate_view.model.repair_steps().tolist() and len(marks) == 20
    integrate_view.every.setValue(100)  # 100 repairs: too many lines to mark
    assert integrate_view.plots._key_lines["angle"] == []


def test_integrate_controls_change_the_model(integrate_view):
    v, m = integrate_view, integrate_view.model
    assert not v.keep.isEnabled()
    v.renormalize.setChecked(True)
    assert m.renormalize and abs(m.run.norm_drift).max() < 1e-12
    v.step_rule.setCurrentIndex(v.step_rule.findData("exact"))
    v.frame.setCurrentIndex(v.frame.findData("world"))
    v.dt.setValue(0.02)
    v.steps.setValue(150)
    v.dtype.setCurrentIndex(v.dtype.findData("float64"))
    v.every.setValue(50)
    v.keep.setCurrentIndex(v.keep.findData(2))
    assert (m.step, m.frame, m.dt, m.steps, m.dtype, m.reorthonormalize_every, m.keep) == (
        "exact", "world", 0.02, 150, "float64", 50, 2)
    assert v.keep.isEnabled()
    _assert_plots_are_the_model(v)
    assert "keeping its z axis" in as_read(v.explanation.text())
    loads = []
    m.events.connect("data", lambda: loads.append(m.preset))
    # Choosing the preset already shown again reloads it: every option goes
    # back to the preset's, and the widgets show it.
    v.preset_box.activated.emit(v.preset_box.currentIndex())
    assert loads == ["first_order_20hz"]
    assert (v.renormalize.isChecked(), v.step_rule.currentData(), v.dt.value(),
            v.steps.value(), v.every.value()) == (False, "first_order", 0.05, 200, 0)
    # A new choice loads once, not once more for the activation that made it.
    v.preset_box.setCurrentIndex(v.preset_box.findData("matrix_float32"))
    v.preset_box.activated.emit(v.preset_box.currentIndex())
    assert loads == ["first_order_20hz", "matrix_float32"]


def test_integrate_step_moves_chain_text_and_pixels(integrate_view):
    from quatlab.rendering.chain import ROOT, chain_reach

    v, m = integrate_view, integrate_view.model
    before, text = _grab(v.scene), as_read(v.explanation.text())
    assert "16.7%" in text
    v.slider.spin.setValue(100)
    assert m.param == 100 and v.plots.cursor() == 100
    assert np.any(_grab(v.scene) != before)
    assert as_read(v.explanation.text()) != text
    assert "step 100 of 200" in as_read(v.explanation.text())
    norm = np.linalg.norm(m.run.quats[100])
    assert v.scene._chains["integrated"].text == f"integrated q, |q| = {norm:.4f}"
    # The thin line reaches where q v q* puts the tip: |q|^2 times the reach.
    start, end = v.stretch.pos
    np.testing.assert_allclose(start, ROOT)
    assert np.linalg.norm(end - start) == pytest.approx(norm**2 * chain_reach(), rel=1e-6)
    v.plots.cursorMoved.emit(30.6)  # a click in the plots scrubs whole steps
    assert m.param == 31


def _scipy_quat(order, angles_deg):
    from scipy.spatial.transform import Rotation

    x, y, z, w = Rotation.from_euler(order, angles_deg, degrees=True).as_quat()
    return np.array([w, x, y, z])


def _same_rotation(a, b):
    assert np.degrees(angle_between(a, b)) < 1e-6


@pytest.mark.parametrize("order", ["ZYX", "xyz", "ZXZ", "yxy"])
def test_euler_order_combo_recomputes_against_scipy(euler_view, order):
    m = euler_view.model
    start, end = np.degrees(m.start), np.degrees(m.end)
    euler_view.order_box.setCurrentIndex(euler_view.order_box.findData(order))
    assert m.order == m.comparison.order == order
    c = m.comparison
    _same_rotation(c.euler_quats[0], _scipy_quat(order, start))
    _same_rotation(c.slerp_quats[-1], _scipy_quat(order, end))
    _same_rotation(c.euler_quats[-1], _scipy_quat(order, end))
    _assert_same(_plotted(euler_view, "angle", "slerp")[1], np.degrees(c.slerp_angle))
    _assert_same(_plotted(euler_view, "speed", "angle0")[1], np.degrees(c.slerp_euler[:, 0]))
    assert euler_view.angle_spins["start"][0].prefix() == f"{order[0]} "
    assert "changed from" in as_read(euler_view.explanation.text())
    assert m.readout().order == order


def test_euler_angle_spin_boxes_drive_the_model(euler_view):
    m = euler_view.model
    spins = euler_view.angle_spins
    spins["start"][1].setValue(20.0)
    spins["end"][2].setValue(-45.0)
    assert np.degrees(m.start)[1] == pytest.approx(20.0)
    assert np.degrees(m.end)[2] == pytest.approx(-45.0)
    c = m.comparison
    _same_rotation(c.euler_quats[0], _scipy_quat(m.order, np.degrees(m.start)))
    _same_rotation(c.slerp_quats[-1], _scipy_quat(m.order, np.degrees(m.end)))
    _assert_same(_plotted(euler_view, "angle", "euler")[1], np.degrees(c.euler_angle))
    # A preset sets order and angles back, and the controls follow it.
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("extrinsic_xyz_lock"))
    p = EulerModel.PRESETS["extrinsic_xyz_lock"]
    assert m.order == "xyz" and euler_view.order_box.currentData() == "xyz"
    assert [s.value() for s in spins["end"]] == pytest.approx(p["end_deg"])
    assert not m.modified and m.readout().locked


def test_euler_model_order_and_angles_validate():
    m = EulerModel()
    with pytest.raises(ValueError, match="order"):
        m.set_order("XYX ")
    with pytest.raises(ValueError, match="start_deg"):
        m.set_angles([0, 0], [0, 0, 0])
    with pytest.raises(ValueError, match="end_deg"):
        m.set_angles([0, 0, 0], [0, np.nan, 0])
    assert m.order == "YXZ" and not m.modified


@pytest.mark.parametrize("order", EulerModel.ORDERS)
def test_euler_outer_and_inner_rings_differ_unless_locked(euler_view, order):
    from quatlab.rendering.gimbal import LOCK_COLOUR

    m = euler_view.model
    m.set_order(order)
    m.set_angles([10.0, 30.0, 20.0], [40.0, 50.0, 60.0])   # far from every lock
    colours = euler_view.gimbal.colours
    assert not euler_view.gimbal.locked
    assert len(set(colours)) == 3 and LOCK_COLOUR not in colours
    m.set_preset("pitch90_lock")
    assert euler_view.gimbal.locked
    assert euler_view.gimbal.colours[0] == euler_view.gimbal.colours[2] == LOCK_COLOUR


def test_blend_negated_pose_plots_the_rotation_not_the_sign(blend_view):
    """A pose stored as -q: the plotted curve moves only as far as the blended rotation does."""
    from scipy.spatial.transform import Rotation

    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("negated_input"))
    m = blend_view.model
    x, y = _plotted(blend_view, "angle", "blend")
    q = m.sweep.blend
    ok = np.all(np.isfinite(q), axis=1)
    r0 = Rotation.from_quat(np.roll(m.quats[0], -1))
    want = np.degrees((r0.inv() * Rotation.from_quat(np.roll(q[ok], -1, axis=1))).magnitude())
    np.testing.assert_allclose(y[ok], want, atol=1e-9)
    # No sample-to-sample jump larger than the rotation's own step (the old
    # path angle went 28 -> 332 deg while the blend turned 0.28 deg).
    step = np.degrees((Rotation.from_quat(np.roll(q[ok][1:], -1, axis=1)).inv()
                       * Rotation.from_quat(np.roll(q[ok][:-1], -1, axis=1))).magnitude())
    assert np.all(np.abs(np.diff(y[ok])) <= step + 1e-9)
    assert blend_view.plots.plots["angle"].getAxis("left").labelText.startswith("rotation")


def test_euler_angles_are_named_by_their_axes_and_colours_mean_one_thing(euler_view):
    from quatlab.rendering.gimbal import ANGLE_COLOURS, LOCK_COLOUR
    from quatlab.rendering.style import METHOD_COLORS

    m = euler_view.model
    m.set_order("xyz")
    m.set_angles([10.0, 20.0, 30.0], [10.0, 20.0, 30.0])
    text = as_read(euler_view.explanation.text())
    # Extrinsic x-y-z: the first angle turns about x, not "yaw" (a position name).
    assert "10.0° about x, 20.0° about y, 30.0° about z" in text
    assert not any(w in text for w in ("yaw", "pitch", "roll"))
    assert "about x" in euler_view.gimbal_legend.text()
    m.set_order("ZYX")
    assert "10.0° about Z, 20.0° about Y′, 30.0° about X″" in as_read(euler_view.explanation.text())
    assert euler_view.angle_spins["start"][1].toolTip() == "The start angle about Y′"
    # One meaning per colour across both plots: orange is the Euler lerp only.
    colours = [euler_view.plots.curve_item(p, k).opts["pen"].color().name().upper()
               for p, keys in (("angle", ("euler", "slerp")),
                               ("speed", ("angle0", "angle1", "angle2"))) for k in keys]
    assert len(set(colours)) == 5
    assert [euler_view.plots._series["speed"][f"angle{i}"].label for i in range(3)] == [
        "SLERP, about Z", "SLERP, about Y′", "SLERP, about X″"]
    # The rings (and the lock) share no colour with any method, nor with each other.
    methods = {c.upper() for c in METHOD_COLORS.values()}
    assert not ({c.upper() for c in (*ANGLE_COLOURS, LOCK_COLOUR)} & methods)
    assert len({*ANGLE_COLOURS, LOCK_COLOUR}) == 4
    assert set(euler_view.gimbal.colours) == set(ANGLE_COLOURS)
    assert set(colours[2:]) == {c.upper() for c in ANGLE_COLOURS}


def _deg_from_pose0(q0, q):
    from scipy.spatial.transform import Rotation

    r = Rotation.from_quat(np.roll(q0, -1)).inv() * Rotation.from_quat(np.roll(q, -1))
    return float(np.degrees(r.magnitude()))


def test_blend_plots_follow_weights_set_by_hand(blend_view):
    """After a hand edit the curves run through the blends the text describes, at the cursor."""
    from quatlab.math import blend as B

    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("negated_input"))
    m = blend_view.model
    _weight(blend_view, 1, 0.6)
    w = m.weights
    assert w.tolist() == pytest.approx([0.5, 0.6, 0.2])
    assert blend_view.plots.plots["angle"].getAxis("bottom").labelText.startswith("pose 1 weight")
    want = {"blend": B.blend(m.quats, w, reference=m.quats[m.reference]),
            "naive": B.naive_weighted_sum(m.quats, w), "align_first": B.align_to_first(m.quats, w)}
    for v, q in want.items():
        x, y = _plotted(blend_view, "angle", v)
        assert x.min() == pytest.approx(0.0) and x.max() == pytest.approx(1.0)
        at = int(np.argmin(np.abs(x - 0.6)))
        assert x[at] == pytest.approx(0.6)
        assert y[at] == pytest.approx(_deg_from_pose0(m.quats[0], q), abs=1e-6)
        assert f"{m.current_angle['blend']:.1f}°" in as_read(blend_view.explanation.text())
    assert blend_view.plots._t == pytest.approx(0.6)
    # The far end of the curve is pose 1's weight at 1 with the others held.
    x, y = _plotted(blend_view, "angle", "blend")
    end = B.blend(m.quats, [0.5, 1.0, 0.2], reference=m.quats[m.reference])
    assert y[-1] == pytest.approx(_deg_from_pose0(m.quats[0], end), abs=1e-6)
    # The sweep slider plays the preset again, and the plots with it.
    blend_view.slider.spin.setValue(1.0)
    _assert_same(_plotted(blend_view, "angle", "blend")[0], m.s)


def test_blend_listing_control_reorders_the_inputs(blend_view):
    """Order dependence: choosing a listing moves align-to-first, never the kept reference."""
    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("order_dependence"))
    m, box = blend_view.model, blend_view.listing_box
    assert box.isVisibleTo(blend_view) and box.count() == 3
    got = {}
    for k, first in enumerate((0, 1, 2)):
        box.setCurrentIndex(k)
        box.activated.emit(k)
        assert m.order[0] == first
        q = m.at_param()
        got[k] = {v: _deg_from_pose0(m.base_poses[0], q[v]) for v in m.VARIANTS}
        assert f"aligns to pose {first}" in as_read(blend_view.explanation.text())
    # Equal weights on 0, 120, 240 deg about Z: aligned to pose 0 the sum is
    # pose 0; aligned to pose 1 or 2 it is 120 deg away (hand-worked).
    assert [got[k]["align_first"] for k in range(3)] == pytest.approx([0, 120, 120], abs=1e-9)
    assert [got[k]["blend"] for k in range(3)] == pytest.approx([0, 0, 0], abs=1e-9)
    # The plot is no longer flat: align-to-first steps with the listing.
    x, y = _plotted(blend_view, "angle", "align_first")
    assert np.nanmax(y) - np.nanmin(y) == pytest.approx(120, abs=1e-9)
    assert np.ptp(_plotted(blend_view, "angle", "blend")[1]) < 1e-9
    blend_view.preset_box.setCurrentIndex(blend_view.preset_box.findData("reference_switch"))
    assert not box.isVisibleTo(blend_view)


def test_blend_plot_drag_after_a_hand_edit_moves_that_weight(blend_view):
    m = blend_view.model
    _weight(blend_view, 2, 0.3)
    blend_view.plots.cursorMoved.emit(0.8)
    assert m.hand == 2 and m.weights[2] == pytest.approx(0.8)
    assert m.weights[:2].tolist() == pytest.approx([1.0, 0.5])


def test_lesson_tab_reframes_its_bodies_on_a_preset_change(qtbot, euler_view):
    scene = euler_view.scene
    scene.reset_camera()
    fitted = scene.opts["distance"]
    scene.setCameraParams(distance=3 * fitted)
    scene._camera_touched = True  # as a student's wheel would
    euler_view.preset_box.setCurrentIndex(euler_view.preset_box.findData("pitch90_lock"))
    qtbot.waitUntil(lambda: scene.opts["distance"] < 2 * fitted)
    def camera():
        c = scene.opts["center"]
        return scene.opts["distance"], c.x(), c.y(), c.z()

    got = camera()
    scene.reset_camera()  # what framing these bodies gives
    assert got == pytest.approx(camera())


def test_the_euler_text_says_where_the_readout_wraps():
    """Where the grey wrap line lies under the cursor (t = 0.5 in the tab's first preset)
    the text pointed at a "grey line in the plots" nobody could see: it gives the t
    now. Checked on a true wrap (yaw across ±180°), found independently: scipy's SLERP
    read back as Euler angles of the same order, where a channel jumps by more than
    180° between samples."""
    from scipy.spatial.transform import Rotation, Slerp

    m = EulerModel("yaw_wrap")
    m.set_param(0.25)
    key = Rotation.from_euler(m.order, np.degrees([m.start, m.end]), degrees=True)
    t = np.linspace(0.0, 1.0, 2001)
    angles = Slerp([0.0, 1.0], key)(t).as_euler(m.order, degrees=True)
    jumps = t[1:][np.any(np.abs(np.diff(angles, axis=0)) > 180.0, axis=1)]
    assert jumps.size  # the default preset has a wrap
    text = as_read(m.explanation())
    said = [float(x) for x in re.findall(r"wraps across ±180° at t = ([0-9., ]+) \(",
                                         text)[0].replace(" ", "").split(",") if x]
    assert len(said) >= 1
    for s in said:
        assert np.min(np.abs(jumps - s)) <= 0.01, (s, jumps)


def test_a_jump_at_the_lock_is_called_a_flip_not_a_wrap():
    """"Near the lock (pitch 85)": SLERP's path passes the lock itself at t = 0.5, and
    its Euler readout flips yaw −90° → +90° and roll +90° → −90° there; the text
    called that a wrap across ±180°. scipy's SLERP, read back as Euler angles, is
    the oracle: the middle angle reaches 90° where the first and last swap sides."""
    from scipy.spatial.transform import Rotation, Slerp

    m = EulerModel("near_lock")
    key = Rotation.from_euler(m.order, np.degrees([m.start, m.end]), degrees=True)
    before, after = Slerp([0.0, 1.0], key)([0.49, 0.51]).as_euler(m.order, degrees=True)
    assert abs(before[1]) > 89.0 and abs(after[1]) > 89.0  # next to the lock
    assert before[0] * after[0] < 0 and abs(before[0] - after[0]) > 170.0  # yaw flips
    text = as_read(m.explanation())
    found = re.findall(r"At t = ([0-9.]+) SLERP passes the gimbal lock", text)
    assert found and abs(float(found[0]) - 0.5) <= 0.01, text
    assert "wraps across ±180°" not in text
