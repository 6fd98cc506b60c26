"""The pose blending tab on a projector: chains large enough to read, never out of view.

Geometry from the view's own camera (:func:`tests.test_scene_explains._projector`)
and chains rebuilt from each result's rotation and root with
:func:`quatlab.rendering.chain.chain_frames`, not from the scene's items.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtWidgets
from test_lesson_views import _grab
from test_plots import colour_pixels
from test_scene_explains import _projector

from quatlab.app.model.blend_lesson import BlendModel
from quatlab.app.qt.blend_view import MEAN_COLOUR, ROOTS
from quatlab.rendering.chain import ROOT, chain_frames

pytestmark = pytest.mark.gl

#: Shortest chain (sum of its three bones' lengths on screen, px) a class can read.
LEAST_CHAIN_PX = 60.0


@pytest.fixture
def blend_tab(qtbot):
    from quatlab.app.qt.window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)

    def show(preset: str, size):
        win.resize(*size)
        win.show_view("blend")
        win.show()
        qtbot.waitExposed(win)
        view = win.views["blend"]
        qtbot.waitUntil(view.scene.isValid)
        view.model.set_preset(preset)
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
            qtbot.wait(10)
        return view

    return show


def _joints(q, key: str) -> np.ndarray:
    """Joint positions (..., 4, 3) of the chain ``key`` (a variant or "poses") at ``q``."""
    joints, _rot = chain_frames(q)
    return joints + (ROOTS[key] - ROOT)


def _shown_chains(view) -> dict[str, np.ndarray]:
    m = view.model
    out = {f"pose{i}": _joints(q, "poses") for i, q in enumerate(m.quats)}
    out.update({v: _joints(q, v) for v, q in m.at_param().items() if np.all(np.isfinite(q))})
    return out


def _inside(px, w, h, slack=0.0) -> bool:
    return bool(px[:, 0].min() >= -slack and px[:, 0].max() <= w + slack
                and px[:, 1].min() >= -slack and px[:, 1].max() <= h + slack)


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("preset", list(BlendModel.PRESETS))
def test_blend_chains_are_long_enough_to_read_from_the_back(blend_tab, preset, size):
    """At 1280x720 the chains were 30-43 px long in a 1276 x 180 view (framed at
    the whole sphere of each chain's reach, under three rows of controls)."""
    view = blend_tab(preset, size)
    scene = view.scene
    w, h = scene.width(), scene.height()
    # The view takes the rows' place: taller than the 180 px it had.
    assert h >= 240, (w, h)
    lo, hi = view.model.param_range
    for f in (0.0, 0.5, 1.0):
        view.model.set_param(lo + f * (hi - lo))
        QtWidgets.QApplication.processEvents()
        to_px = _projector(scene)
        for key, joints in _shown_chains(view).items():
            px = to_px(joints)
            assert _inside(px, w, h), (preset, f, key, px)
            length = float(np.linalg.norm(np.diff(px, axis=0), axis=1).sum())
            assert length >= LEAST_CHAIN_PX, (preset, f, key, round(length, 1))


@pytest.mark.parametrize("preset", list(BlendModel.PRESETS))
def test_blend_camera_keeps_every_edit_in_view(blend_tab, preset):
    """Weights set by hand and poses stored as -q move the results; the camera,
    framed once for the preset, still shows them whole."""
    view = blend_tab(preset, (1280, 720))
    scene, m = view.scene, view.model
    framed = scene._fit_balls()[:2]
    rng = np.random.default_rng(7)
    n = len(m.weights)
    for _ in range(12):
        for i in rng.choice(n, size=rng.integers(0, n + 1), replace=False):
            view.negate_boxes[int(i)].setChecked(not view.negate_boxes[int(i)].isChecked())
        for i in range(n):
            m.set_weight(i, float(rng.choice([0.0, rng.uniform(), 1.0])))
        QtWidgets.QApplication.processEvents()
        to_px = _projector(scene)
        for key, joints in _shown_chains(view).items():
            px = to_px(joints)
            # A bone's thickness of slack: the fit pads each point by about that.
            assert _inside(px, scene.width(), scene.height(), slack=4.0), (
                key, m.weights, m.negated, px)
    # Framed on the preset, not on the poses now: the camera fits the same
    # bodies after the edits (it still follows the view's shape).
    after = scene._fit_balls()[:2]
    assert np.array_equal(after[0], framed[0]) and np.array_equal(after[1], framed[1])


def _rotation_deg(q0, qs) -> np.ndarray:
    """Rotation angle (deg) from ``q0`` to each row of ``qs`` by scipy; NaN rows stay NaN."""
    from scipy.spatial.transform import Rotation

    qs = np.atleast_2d(qs)
    out = np.full(len(qs), np.nan)
    ok = np.all(np.isfinite(qs), axis=1)
    r0 = Rotation.from_quat(np.roll(q0, -1))  # scipy is (x, y, z, w)
    if ok.any():
        out[ok] = np.degrees((r0.inv() * Rotation.from_quat(np.roll(qs[ok], -1, axis=1)))
                             .magnitude())
    return out


def _scipy_mean(quats, w) -> np.ndarray:
    """scipy's ``Rotation.mean`` (the chordal L2 mean) as (w, x, y, z)."""
    from scipy.spatial.transform import Rotation

    return np.roll(Rotation.from_quat(np.roll(quats, -1, axis=1)).mean(weights=w).as_quat(), 1)


def _blends_by_hand(quats, w, ref) -> dict[str, np.ndarray]:
    """The three blends of one row of weights, written out (docs/interpolation.md)."""
    def total(qs):
        acc = sum(wi * qi for wi, qi in zip(w, qs, strict=True))
        n = np.linalg.norm(acc)
        return acc / n if n > 1e-9 else np.full(4, np.nan)

    def aligned(to):
        return [q if np.dot(q, to) >= 0 else -q for q in quats]

    return {"blend": total(aligned(quats[ref])), "naive": total(list(quats)),
            "align_first": total(aligned(quats[0]))}


def _next_reference(w, previous) -> int:
    """The reference rule: kept while its weight is positive, else the next by index."""
    n = len(w)
    if w[previous] > 0:
        return previous
    return next((previous + k) % n for k in range(1, n + 1) if w[(previous + k) % n] > 0)


def _curves(view) -> dict[str, object]:
    plots = view.plots
    return {**{v: plots.curve_item("angle", v) for v in BlendModel.VARIANTS},
            "reference": plots.curve_item("speed", "reference")}


def test_blend_plot_changes_update_the_curves_in_place(blend_tab):
    """Every change re-set all four curves (about 16 ms of repaint, benchmarks/
    bench_blend_plots.py): now the sweep moves only the cursor, a hand-set weight
    updates the same items, and dragging it on leaves their data alone."""
    view = blend_tab("reference_switch", (1280, 720))
    m, items = view.model, _curves(view)
    quats = m.quats

    def data():
        return {k: (it.xData, it.yData) for k, it in items.items()}

    # The plotted sweep against the reference rule worked by hand.
    x0, _ = items["blend"].getData()
    sweep = np.array(m.PRESETS["reference_switch"]["sweep"])
    ref, refs, angles = 0, [], {v: [] for v in m.VARIANTS}
    for s in x0:
        w = np.array([np.interp(s, np.arange(len(sweep)), sweep[:, j]) for j in range(3)])
        ref = _next_reference(w, ref)
        refs.append(ref)
        for v, q in _blends_by_hand(quats, w, ref).items():
            angles[v].append(q)
    for v in m.VARIANTS:
        np.testing.assert_allclose(items[v].yData, _rotation_deg(quats[0], np.array(angles[v])),
                                   atol=1e-6, err_msg=v)
    np.testing.assert_array_equal(items["reference"].yData, refs)

    before = data()
    for s in (0.3, 1.2, 1.9):
        m.set_param(s)
        QtWidgets.QApplication.processEvents()
        assert _curves(view) == items  # same objects
        assert all(a[0] is b[0] and a[1] is b[1] for a, b in
                   zip(before.values(), data().values(), strict=True)), s  # no setData
        assert view.plots.cursor() == pytest.approx(s)

    m.set_weight(1, 0.3)  # by hand: pose 1's weight over [0, 1], the others held
    QtWidgets.QApplication.processEvents()
    assert _curves(view) == items
    hand = data()
    x, _ = items["blend"].getData()
    assert x[0] == 0.0 and x[-1] == 1.0
    held, ref0 = m.weights.copy(), m.reference
    by_hand = {v: [] for v in m.VARIANTS}
    for xi in x:
        w = held.copy()
        w[1] = xi
        for v, q in _blends_by_hand(quats, w, _next_reference(w, ref0)).items():
            by_hand[v].append(q)
    for v in m.VARIANTS:
        np.testing.assert_allclose(items[v].yData, _rotation_deg(quats[0], np.array(by_hand[v])),
                                   atol=1e-6, err_msg=v)
    # The cursor dots sit on the blends the chains show, and on the rotation mean.
    dots = view.plots._dots["angle"].data
    shown = list(_blends_by_hand(quats, m.weights, m.reference).values()) + [
        _scipy_mean(quats, m.weights)]
    np.testing.assert_allclose(sorted(dots["y"]), sorted(_rotation_deg(quats[0],
                                                                       np.array(shown))),
                               atol=1e-6)

    # The reference is a pose index: whole-number ticks, also after new curves.
    assert view.plots.plots["speed"].getAxis("left")._tickLevels[0] == [
        (0.0, "0"), (1.0, "1"), (2.0, "2")]

    m.set_weight(1, 0.45)  # the same slider dragged on: the same curves
    QtWidgets.QApplication.processEvents()
    assert all(a[0] is b[0] and a[1] is b[1] for a, b in
               zip(hand.values(), data().values(), strict=True))
    assert view.plots.cursor() == pytest.approx(0.45)


# --------------------------------------------------------------------------- the rotation mean


def _pink(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the mean's reddish purple, lit or not: red and blue both well above green.

    The poses are grey, the blends green, orange and sky blue, the x gizmos red
    (blue below green): none of them passes.
    """
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (r - g > 30) & (b - g > 15)


def _pink_near(view, q) -> int:
    """Mean-coloured pixels in the box around the mean chain's joints when posed at ``q``."""
    scene = view.scene
    scene.update()
    QtWidgets.QApplication.processEvents()
    px = _projector(scene)(_joints(q, "mean"))
    img = _grab(scene).astype(int)
    lo = np.clip(np.floor(px.min(axis=0)) - 6, 0, None).astype(int)
    hi = np.ceil(px.max(axis=0) + 6).astype(int)
    return int(_pink(img[lo[1]:hi[1], lo[0]:hi[0]]).sum())


def test_blend_shows_the_rotation_mean_state_readout_chain_and_curve(blend_tab):
    """Reference switch at weights (0.25, 0.5, 0.5): the kept-reference blend (aligned to
    pose 0) is the identity, the rotation mean the half turn: 180 deg apart, on screen."""
    from quatlab.math.quaternion import angle_between

    view = blend_tab("reference_switch", (1400, 900))
    m = view.model
    m.set_param(0.75)
    QtWidgets.QApplication.processEvents()
    assert m.weights == pytest.approx([0.25, 0.5, 0.5])
    mean = _scipy_mean(m.quats, m.weights)
    assert float(angle_between(m.current_mean, mean)) < 1e-9
    assert _rotation_deg(m.quats[0], mean)[0] == pytest.approx(180.0, abs=1e-6)
    assert m.mean_off["blend"] == pytest.approx(180.0, abs=1e-6)
    text = view.mean_readout.text()
    assert "rotation mean" in text and "180.0° about (0.00, 0.00, 1.00)" in text
    assert "kept reference 180.0°" in text
    assert "180.0° off the rotation mean" in view.explanation.text()
    # The mean chain is drawn, at the mean, among the inputs.
    frame = np.array(view.scene._chains["mean"].body.transform().matrix())
    np.testing.assert_allclose(frame[:3, 3], ROOTS["poses"], atol=1e-6)
    assert _pink_near(view, m.current_mean) > 40

    # The plotted curve: scipy's mean along the sweep, a gap where it is not unique
    # (equal weights on poses 120 deg apart: the circular resultant vanishes).
    x, y = view.plots.curve_item("angle", "mean").getOriginalDataset()
    sweep = np.array(m.PRESETS["reference_switch"]["sweep"])
    w = np.stack([np.interp(x, np.arange(len(sweep)), sweep[:, j]) for j in range(3)], axis=1)
    angles = np.radians([0.0, 120.0, 240.0])
    resultant = np.hypot(w @ np.cos(angles), w @ np.sin(angles))
    undefined = resultant < 1e-9
    assert undefined.sum() == 2 and np.all(np.isnan(np.asarray(y)[undefined]))
    want = np.array([_rotation_deg(m.quats[0], _scipy_mean(m.quats, wi))[0]
                     for wi in w[~undefined]])
    np.testing.assert_allclose(np.asarray(y)[~undefined], want, atol=1e-6)

    # Equal weights: no unique mean, so no chain (a note says why), the readout says so.
    for i in range(3):
        m.set_weight(i, 1.0)
    QtWidgets.QApplication.processEvents()
    assert np.all(np.isnan(m.current_mean))
    assert _pink_near(view, mean) == 0
    assert "rotation mean: not unique at these weights" in view.scene.notes()
    assert "not unique" in view.mean_readout.text()


def test_blend_mean_curve_is_drawn_and_left_out_where_it_exists_nowhere(blend_tab):
    view = blend_tab("reference_switch", (1280, 720))
    QtWidgets.QApplication.processEvents()
    plots = view.plots
    assert colour_pixels(plots.grab().toImage(), MEAN_COLOUR) > 300
    assert "rotation mean" in [b.text() for b in plots.findChildren(QtWidgets.QCheckBox)]
    # Equal weights on 0, 120, 240 deg throughout: no mean anywhere, so no curve, no
    # band over the whole plot, no toggle for it.
    view.model.set_preset("order_dependence")
    QtWidgets.QApplication.processEvents()
    assert colour_pixels(plots.grab().toImage(), MEAN_COLOUR) == 0
    assert not view.plots.curve_item("angle", "mean").isVisible()
    assert "rotation mean" not in [b.text() for b in view.plots.findChildren(QtWidgets.QCheckBox)]
    assert "not unique" in view.mean_readout.text()


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_the_reference_change_line_and_the_jump_both_show(blend_tab, theme):
    """At sweep 1 the kept-reference blend jumps 0 -> 180 deg where the reference
    changes: the grey line that says so lay under the jump's green stroke, gone in
    every theme. Down the jump, pixels of both colours (as the theme draws them)."""
    from PyQt6 import QtCore

    from quatlab.app.qt import theme_menu
    from quatlab.app.qt.blend_view import COLOURS
    from quatlab.app.qt.recorder import image_to_rgb
    from quatlab.rendering import themes
    from quatlab.rendering.curve_plots import _MARKER_COLOUR

    view = blend_tab("reference_switch", (1280, 720))
    theme_menu.apply_theme(view.window(), theme)
    view.model.set_param(0.0)  # the cursor away from the line
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    assert [ln.value() for ln in view.plots._key_lines["angle"]] == pytest.approx([1.0])
    plot = view.plots.plots["angle"]
    graphics = plot.scene().views()[0]
    rgb = image_to_rgb(graphics.grab().toImage()).astype(int)
    ratio = graphics.devicePixelRatioF()

    def px(x: float, y: float) -> tuple[int, int]:
        at = graphics.mapFromScene(plot.getViewBox().mapViewToScene(QtCore.QPointF(x, y)))
        return round(at.x() * ratio), round(at.y() * ratio)

    x, top = px(1.0, 160.0)
    _, bottom = px(1.0, 20.0)
    band = rgb[top:bottom, x - 4:x + 5]  # the jump's rows, a few pixels either side

    def count(hex_colour: str) -> int:
        want = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(band - want).sum(axis=-1) <= 30).any(axis=1).sum())

    t = themes.current()
    rows = bottom - top
    green, grey = count(t.colour(COLOURS["blend"])), count(t.colour(_MARKER_COLOUR))
    # Rows with each colour in them: the dashes share the rows between them.
    assert green >= 0.3 * rows and grey >= 0.3 * rows, (theme, rows, green, grey)
