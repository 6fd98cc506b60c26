"""Lesson "same keys, six engines": math against hand-worked turns and scipy, model, view pixels.

The figures are worked here: a quarter turn with its second key stored as -q
is 90 deg along the short arc and 270 deg the long way; the truck's wheel keys
are 11.7 deg apart (tests/data/gltf/README.md) so 348.3 deg the long way; a
20 deg turn about Y stored as Euler angles 170 -> -170 spins 340 deg.
"""

from __future__ import annotations

import numpy as np
import pytest
from lesson_checks import chain_boxes, settle
from scipy.spatial.transform import Rotation
from test_lesson_views import _grab
from text_layout import as_read

from quatlab.app.model.same_keys_lesson import ENGINES, SameKeysModel
from quatlab.math import same_keys as S


def _swept(preset, runtimes=ENGINES):
    p = S.PRESETS[preset]
    return S.compare(p["q0"], p["q1"], runtimes).swept


@pytest.mark.parametrize("preset, short, long_way, euler", [
    ("stored_minus_q", 90.0, 270.0, 90.0),
    ("truck_wheel", 11.7, 348.3, 348.3),
    ("euler_wrap", 20.0, 20.0, 340.0),
])
def test_turns_worked_by_hand(preset, short, long_way, euler):
    swept = _swept(preset)
    for rid in ("gltf", "three", "playcanvas", "unreal"):
        assert swept[rid] == pytest.approx(short, abs=0.05), rid
    assert swept["unity_quat"] == pytest.approx(long_way, abs=0.05)
    assert swept["unity_euler"] == pytest.approx(euler, abs=0.05)


def test_presets_are_what_they_say():
    p = S.PRESETS["euler_wrap"]
    r = Rotation.from_quat(np.array([p["q0"], p["q1"]]), scalar_first=True)
    # Unity's order: z, x, y about fixed axes; the Y channel goes 170 -> -170.
    assert np.allclose(r.as_euler("zxy", degrees=True), [[0, 0, 170], [0, 0, -170]])
    truck = S.PRESETS["truck_wheel"]
    assert np.dot(truck["q0"], truck["q1"]) == pytest.approx(-0.9948, abs=1e-4)


def test_path_angle_follows_the_motion_whatever_sign_a_runtime_returns():
    # Unreal's FastLerp returns -q of the short path's pose; the path angle still reads
    # the motion: 45 deg at t = 1/2 of the quarter turn.
    p = S.PRESETS["stored_minus_q"]
    c = S.compare(p["q0"], p["q1"], ("unreal",), samples=3)
    assert c.quats["unreal"][1][0] < 0
    assert c.angle["unreal"][1] == pytest.approx(45.0, abs=1.0)


def test_off_the_reference_against_scipy():
    p = S.PRESETS["truck_wheel"]
    c = S.compare(p["q0"], p["q1"], ("gltf", "unity_quat"), samples=11)
    ref = Rotation.from_quat(c.quats["gltf"], scalar_first=True)
    naive = Rotation.from_quat(c.quats["unity_quat"], scalar_first=True)
    assert np.allclose(c.off["unity_quat"], np.degrees((ref.inv() * naive).magnitude()))


# --------------------------------------------------------------------------- model


def test_editing_a_key_replays_every_runtime():
    m = SameKeysModel("stored_minus_q")
    seen = []
    m.events.connect("data", lambda: seen.append("data"))
    assert m.groups()["glitch"] == ("unity_quat",)
    m.state.negate(1)                                  # the -q button
    assert seen and m.state.preset is None
    assert m.groups()["glitch"] == () and "Your two keys." in m.explanation()
    m.set_preset("truck_wheel")
    assert m.state.preset == "truck_wheel"
    assert m.groups()["glitch"] == ("unity_quat", "unity_euler")
    assert m.comparison.swept["unity_quat"] == pytest.approx(348.3, abs=0.05)


def test_explanation_names_the_groups():
    m = SameKeysModel("half_turn")
    text = m.explanation()
    assert "Same motion" in text and "Same way, other timing" in text
    assert "Unity quaternion curves</b> takes another path" in text
    m.set_param(0.25)
    assert "At t = 0.25" in m.explanation()


def test_unknown_runtime_is_refused():
    with pytest.raises(ValueError, match="unknown runtime"):
        SameKeysModel(runtimes=("gltf", "unity"))


# --------------------------------------------------------------------------- view


@pytest.fixture
def view(qtbot):
    from quatlab.app.qt.same_keys_view import SameKeysView

    v = SameKeysView(SameKeysModel())
    qtbot.addWidget(v)
    v.resize(1400, 1000)
    v.show()
    qtbot.waitExposed(v)
    return v


def test_registered_in_the_window():
    from quatlab.app.qt.window import view_names

    assert "engines" in view_names()


def test_model_drives_the_widgets(view):
    m = view.model
    m.set_preset("euler_wrap")
    assert view.preset_box.currentData() == "euler_wrap"
    c = m.comparison
    for plot, values in (("angle", c.angle), ("speed", c.off)):
        for rid in ENGINES:
            x, y = view.plots.curve_item(plot, rid).getOriginalDataset()
            np.testing.assert_allclose(x, c.t)
            np.testing.assert_allclose(y, values[rid])
    m.set_param(0.7)
    assert view.slider.spin.value() == pytest.approx(0.7)
    assert "At t = 0.70" in as_read(view.explanation.text())
    # The editors show the keys.
    assert float(view.editors[1].components[2].text()) == pytest.approx(0.99619, abs=1e-5)


def test_the_minus_q_button_changes_the_stored_sign_lerp(view):
    assert view.model.groups()["glitch"] == ("unity_quat",)
    view.editors[1].negate_button.click()
    assert view.model.groups()["glitch"] == ()
    assert "Your two keys." in as_read(view.explanation.text())


def _overlap(view, key, t0, t1):
    """Overlap (intersection over union) of chain ``key``'s pixels at t0 and t1, and its size."""
    for rid in ENGINES:
        view.scene.set_chain_visible(rid, False)
        view.scene.set_label(rid, "")
        view.scene.set_path(rid, None)
    empty = _grab(view.scene)
    view.scene.set_chain_visible(key, True)
    masks = []
    for t in (t0, t1):
        view.model.set_param(t)
        masks.append(np.any(_grab(view.scene) != empty, axis=-1))
    a, b = masks
    return float(np.count_nonzero(a & b) / np.count_nonzero(a | b)), int(np.count_nonzero(a))


def test_the_long_way_chain_is_elsewhere_mid_segment(view):
    view.model.set_preset("truck_wheel")
    # At t = 1/2 the stored-sign lerp is half way round the long way (174 deg off the
    # start pose), the reference 5.9 deg along the short arc.
    naive, size = _overlap(view, "unity_quat", 0.0, 0.5)
    assert size > 300 and naive < 0.2, (naive, size)
    ref, _ = _overlap(view, "gltf", 0.0, 0.5)
    # The reference's 5.9 deg shows: the camera sees the wheel's plane face on and
    # the chain large, so its thin bones keep 40 % of their pixels (0.5 when seen
    # edge on), eight times the long way's share.
    assert ref > 0.3 and ref > 4 * naive, (ref, naive)


def test_after_minus_q_the_long_way_round_has_its_room(view):
    """The chains stand side by side by what they sweep (ChainCamera.set_row): after
    −q on the 20° wrap, the stored-sign lerp turns 340° and needs a whole circle's
    room. The view re-frames (its camera untouched): every chain stays inside it
    and no two chains' sweeps, seen on the screen, meet."""
    view.model.set_preset("euler_wrap")
    settle(6)
    view.editors[1].negate_button.click()
    settle(6)
    assert view.model.comparison.swept["unity_quat"] > 300
    scene = view.scene
    w, h = scene.width(), scene.height()
    swept = {}
    for t in np.linspace(0.0, 1.0, 9):
        view.model.set_param(float(t))
        for key, (lo, hi) in chain_boxes(scene).items():
            assert lo.min() >= -1 and hi[0] <= w + 1 and hi[1] <= h + 1, (key, t, lo, hi)
            was = swept.setdefault(key, (lo, hi))
            swept[key] = (np.minimum(was[0], lo), np.maximum(was[1], hi))
    keys = list(swept)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            (alo, ahi), (blo, bhi) = swept[a], swept[b]
            apart = np.any((ahi < blo + 1) | (bhi < alo + 1))
            assert apart, (a, b, swept[a], swept[b])


def test_opened_on_long_numbers_the_forms_keep_one_row_and_the_page_its_plots(qtbot):
    """As ``screenshot --view engines --preset truck_wheel`` opens it at 1280x720: q0
    and q1 (0.057433, -0.99835 ...) were laid out in two rows before the window
    showed, the forms asked for that narrow width from then on (309 px where the
    default preset's get 482), and the column of q0 and q1 ran 99 px past the page:
    the page scrolled and the plots were cut off."""
    from quatlab.app.commands.screenshot import lesson_state, set_lesson_case, show_window

    (win, _img), problem = show_window(
        lesson_state("engines", None, None), "engines", (1280, 720),
        prepare=lambda w: set_lesson_case(w, "engines", "truck_wheel", 0.5))
    assert problem is None
    qtbot.addWidget(win)
    view = win.views["engines"]
    assert [e._two_rows for e in view.editors] == [(False, False, False)] * 2
    assert view.height() <= view.parentWidget().height()
    assert not win.tabs.currentWidget().verticalScrollBar().isVisible()


def test_forms_narrowed_to_two_rows_take_one_again_when_there_is_room(view):
    """A form in two rows asked for the width of two rows: widened again, the window
    kept it there."""
    view.model.set_preset("truck_wheel")
    view.resize(700, 1000)
    settle(8)
    assert any(any(e._two_rows) for e in view.editors)
    view.resize(1400, 1000)
    settle(8)
    assert [e._two_rows for e in view.editors] == [(False, False, False)] * 2


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_every_runtime_keeps_3_to_1_on_its_background_in_every_theme(view, theme):
    """Curves in the plots, chains, trails and labels in 3D (WCAG 1.4.11; labels 4.5:1
    as text). PlayCanvas' sky blue and Unity Euler's orange were 2.1:1 on the light
    scene and 2.2:1 on the plots; on high contrast the white Unreal chain's label was
    grey (#757575: its colour translated into the theme twice)."""
    import pyqtgraph as pg
    from oracles import contrast_8bit
    from PyQt6 import QtGui

    from quatlab.app.qt import theme_menu
    from quatlab.rendering import themes
    from quatlab.rendering.labels import text_ink

    def rgb(c) -> np.ndarray:
        c = QtGui.QColor.fromRgbF(*c[:3]) if isinstance(c, tuple) else QtGui.QColor(c)
        return np.array([c.red(), c.green(), c.blue()])

    theme_menu.apply_theme(view, theme)
    t = themes.current()
    plots, scene = rgb(t.background), rgb(t.scene)
    for graphics in view.plots.findChildren(pg.GraphicsView):
        assert np.array_equal(rgb(graphics.backgroundBrush().color()), plots)
    for plot in ("angle", "speed"):
        for rid in ENGINES:
            pen = pg.mkPen(view.plots.curve_item(plot, rid).opts["pen"])
            assert contrast_8bit(rgb(pen.color()), plots) >= 3.0, (plot, rid, pen.color().name())
    for rid in ENGINES:
        chain = view.scene._chains[rid]
        ratios = {what: float(contrast_8bit(rgb(c), scene)) for what, c in (
            ("chain", chain.color), ("trail", chain.trail_color),
            ("label", text_ink(chain.label.color)))}
        assert min(ratios["chain"], ratios["trail"]) >= 3.0, (rid, ratios)
        # A label reads as text, and never fainter than the chain it names.
        assert ratios["label"] >= max(4.5, ratios["chain"] - 0.01), (rid, ratios)
