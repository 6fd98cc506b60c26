"""What a preset change computes, counted (not timed): each piece done once, none per pair.

Leaving ``q-to-minus-q`` froze the window for 2-15 s. Counted here, so a
loaded machine cannot hide or fake it:

* the plot callouts were placed with a stale transform: a label re-placed by
  the one above it before pyqtgraph had given it the new view scale saw a
  box 67,000 px tall, 420,000 spots, each scored against 2,000 curve
  segments (845 million rectangle-segment pairs in one change);
* each label of a stack re-placed every label below it, and each of those
  again: the n-th label of a stack was placed 2**(n-2) times per layout;
* the turn axis of a path that never turns (q to -q, shortest) was looked
  for sample by sample, 1,000 quaternion products;
* a new y range re-placed the callouts about to be replaced (a quarter of
  the wrapping lesson's preset change, its peak label over 720 segments);
* the S3 tab placed its labels twice, the two-key lesson behind it redrew
  its plots and scene, the blending lesson fitted the camera to every pose
  of every chain eight times, and the Euler lesson built its gimbal pose by
  pose to frame it.
"""

from __future__ import annotations

import csv
import sys
from types import SimpleNamespace

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtGui, QtWidgets

import quatlab.app.qt.window as window_module
import quatlab.rendering.chain as chain_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt import blend_view, euler_view, s3_circle, s3_view, wrap_view
from quatlab.app.qt.window import MainWindow
from quatlab.math import gimbal as G
from quatlab.math import quaternion as Q
from quatlab.rendering import label_place, plot_label, scene_marks
from quatlab.rendering.plot_label import BoxedLabel
from quatlab.rendering.scene_marks import turn_of

pytestmark = pytest.mark.gl


def _settle():
    for _ in range(3):
        QtWidgets.QApplication.processEvents()


def _preset(win, name):
    win.findChild(QtGui.QAction, f"preset_{name}").trigger()
    _settle()


class _Count:
    """Wraps ``owner.name``; counts the calls (and keeps what ``note`` makes of each)."""

    def __init__(self, monkeypatch, owner, name, note=None):
        self.calls, self.notes = 0, []
        real = getattr(owner, name)

        def counted(*args, **kwargs):
            self.calls += 1
            if note is not None:
                self.notes.append(note(*args, **kwargs))
            return real(*args, **kwargs)
        monkeypatch.setattr(owner, name, counted)


def _shown(qtbot, widget, width: int, height: int):
    """``widget`` shown at ``width`` x ``height``, exposed, and closed after the test."""
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_leaving_q_to_minus_q_scores_few_spots_in_boxes_of_the_view_size(main_window, monkeypatch):
    win = main_window("q-to-minus-q", 0.5)
    speed = win.lesson.plots.plots["speed"].getViewBox()
    shown = [lb for lb in speed.childGroup.childItems() if isinstance(lb, BoxedLabel)]
    assert shown, "q-to-minus-q labels its speed plot's gaps"
    # Column-segment pairs clipped (each left of a label's spots against each segment).
    pairs = _Count(monkeypatch, plot_label, "blocked_spots",
                   lambda lefts, tops, w, h, segs, grow: len(lefts) * len(segs))
    spans = _Count(monkeypatch, BoxedLabel, "_free_spot",
                   lambda self, w, h, box, *rest: box.height())
    for name in ("half-turn", "q-to-minus-q", "negated-20", "q-to-minus-q", "large-170"):
        _preset(win, name)
    # Every placement searched a box no taller than its plot (in pixels).
    tallest = max(vb.sceneBoundingRect().height()
                  for vb in (p.getViewBox() for p in win.lesson.plots.plots.values()))
    assert spans.notes and max(spans.notes) <= tallest + 1.0, (max(spans.notes), tallest)
    # Column-segment pairs looked at, all five changes together (rectangle-segment
    # pairs were 845 million for q-to-minus-q -> half-turn alone).
    assert pairs.notes and sum(pairs.notes) < 3_000_000, sum(pairs.notes)


def test_a_stack_of_labels_is_placed_once_per_layout(qtbot, monkeypatch):
    plot = _shown(qtbot, pg.PlotWidget(), 600, 500)
    stack: list[BoxedLabel] = []
    x = np.linspace(0.0, 1.0, 200)
    plot.plot(x, np.sin(6 * x))
    for k in range(7):
        label = BoxedLabel(f"label {k}\nsecond line", fraction=k / 7, stack=stack,
                           obstacles=lambda: [np.column_stack([x, np.sin(6 * x)])])
        plot.addItem(label, ignoreBounds=True)
        label.setPos(k / 7, 1.0)
    _settle()
    placed = _Count(monkeypatch, plot_label.BoxedLabel, "_place")
    plot.setYRange(-3.0, 2.0, padding=0)
    _settle()
    # Each change of the view transform (pyqtgraph makes a few for one range)
    # places each label once: re-placing the ones below from each one placed
    # made it 2**(n-1) - 1 placements for a stack of n, 127 here, a change.
    assert len(stack) <= placed.calls <= 4 * len(stack), placed.calls
    box = plot.getViewBox().sceneBoundingRect()
    rects = [lb.textItem.sceneBoundingRect() for lb in stack]
    assert all(box.contains(r) for r in rects)
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_a_path_that_never_turns_is_not_searched_sample_by_sample(main_window, monkeypatch):
    win = main_window("half-turn", 0.5)
    calls = []
    # Wherever the scene's modules took turn_of from scene_marks (the scene's
    # turn marks may live in a module of their own).
    for module in [m for name, m in sys.modules.items() if name.startswith("quatlab.rendering")]:
        if getattr(module, "turn_of", None) is turn_of and module is not scene_marks:
            monkeypatch.setattr(module, "turn_of",
                                lambda *a, **k: calls.append(1) or turn_of(*a, **k))
    assert calls == []
    turns = SimpleNamespace(calls=0)
    _preset(win, "q-to-minus-q")
    turns.calls = len(calls)
    # A handful per chain (its pose, the turn drawn at its path's widest):
    # not one per sample of its 500.
    assert 0 < turns.calls < 120, turns.calls


def test_the_last_turn_axis_is_turn_of_at_the_last_sample_with_one(rng):
    from quatlab.rendering.scene_marks import last_turn_axis

    q0 = Q.normalize(rng.normal(size=4))
    for path in (Q.normalize(rng.normal(size=(50, 4))),
                 np.vstack([Q.multiply(Q.from_axis_angle([0, 0, 1], 0.4), q0), np.tile(q0, (5, 1)),
                            -np.tile(q0, (5, 1)), np.full((3, 4), np.nan)]),
                 np.tile(-q0, (9, 1))):
        want = None
        for q in path[::-1]:
            axis, _angle = turn_of(q0, q)
            if axis is not None:
                want = axis
                break
        got = last_turn_axis(q0, path)
        assert (got is None) == (want is None)
        if want is not None:
            np.testing.assert_allclose(got, want, atol=1e-15)


def _window_with(qtbot, monkeypatch, module, preset="negated-20"):
    monkeypatch.setattr(window_module, "_view_modules", lambda: [module], raising=False)
    win = MainWindow(LessonState.from_preset(preset, t=0.5))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.show_view(module.VIEW_NAME)
    _settle()
    return win


def test_a_preset_on_the_s3_tab_places_its_labels_once_and_leaves_the_hidden_lesson(
        qtbot, monkeypatch):
    win = _window_with(qtbot, monkeypatch, s3_view)
    placed = _Count(monkeypatch, s3_circle.GreatCircleView, "_place_labels_now")
    clipped = _Count(monkeypatch, label_place, "covered")
    redrawn = _Count(monkeypatch, win.lesson.plots, "set_curves")
    _preset(win, "large-170")
    # Its labels placed when it redraws and once more when the new text resizes
    # the plot, each order of the three labels scored without clipping again.
    assert placed.calls <= 2 and clipped.calls <= 60, (placed.calls, clipped.calls)
    assert redrawn.calls == 0   # the two-key tab is hidden: it catches up when shown
    # Shown again, it draws the state as it is now.
    win.show_view("main")
    _settle()
    assert redrawn.calls == 1
    shown = win.lesson.plots._series["angle"]["naive_slerp"].y
    np.testing.assert_array_equal(shown, win.state.curves["naive_slerp"].angle_deg)


def test_a_non_unit_preset_leaves_the_s3_tab_its_size_and_its_labels_placed_once(
        qtbot, monkeypatch):
    # The glTF triangle's q0 is not quite unit: the editor's "|q| as entered =
    # 0.999849 → normalized" widened the side panel by 28 px, which resized the S3
    # tab beside it after it had drawn, and every label was placed and drawn again.
    win = _window_with(qtbot, monkeypatch, s3_view, preset="gltf-box-animated")
    tab = win.views["s3"]
    size = tab.size()
    placed = _Count(monkeypatch, s3_circle.GreatCircleView, "_place_labels_now")
    for name in ("gltf-animated-triangle", "gltf-box-animated", "gltf-animated-triangle"):
        before = placed.calls
        _preset(win, name)
        qtbot.wait(100)  # the side panel's new width reaches the tab in a few passes
        assert tab.size() == size, name
        assert placed.calls - before == 1, name
    # The length is still told in full, its arrow and word on one line.
    label = win.findChild(QtWidgets.QWidget, "endpoint0").norm_label
    assert label.text().startswith("|q| as entered = 0.999849") and "→\u00a0" in label.text()


def test_the_plots_exported_from_another_tab_are_the_current_ones(qtbot, monkeypatch, tmp_path):
    win = _window_with(qtbot, monkeypatch, s3_view, preset="negated-20")
    _preset(win, "large-170")
    out = tmp_path / "plots.csv"
    win.export_plots(str(out))
    rows = list(csv.DictReader(out.read_text().splitlines()))
    column = [float(r["naive_slerp_angle_deg"]) for r in rows]
    np.testing.assert_allclose(column, win.state.curves["naive_slerp"].angle_deg, rtol=1e-6)


def test_a_blend_preset_fits_each_framed_chain_once(qtbot, monkeypatch):
    win = _window_with(qtbot, monkeypatch, blend_view)
    view = win.views["blend"]
    keys = view.model.preset_items()
    worked = _Count(monkeypatch, chain_module.Q, "as_quaternion",
                    lambda q, name="q", **kw: name)
    for key, _label, _tip in [*keys[1:], keys[0]]:
        view.preset_box.setCurrentIndex(view.preset_box.findData(key))
        _settle()
    chains = len(view.scene._chains)
    poses = sum(n == "local_q" for n in worked.notes) / len(keys)
    # Each framed chain's poses worked out about once a change (its pose and
    # its camera fit; the marker reuses the joints), not once per chain per
    # fit with eight fits a change.
    assert poses <= 4 * chains, (poses, chains)


def test_a_blend_preset_fits_the_camera_once_for_all_its_chains(qtbot, monkeypatch):
    """Setting seven chains' roots and framed poses fitted the camera after each
    (about 3 ms a fit): the view now asks for one fit for the whole change."""
    from quatlab.rendering.chain_scene import ChainScene

    win = _window_with(qtbot, monkeypatch, blend_view)
    view = win.views["blend"]
    fits = _Count(monkeypatch, ChainScene, "_fit_balls")
    keys = [k for k, _label, _tip in view.model.preset_items()]
    for key in [*keys[1:], keys[0]]:
        before = fits.calls
        view.model.set_preset(key)  # the change itself, before any resize it causes
        assert fits.calls - before == 1, (key, fits.calls - before)
        _settle()


def test_one_framing_fits_once_at_its_end_and_not_at_all_when_not_asked(qtbot, monkeypatch):
    from quatlab.rendering.chain_scene import ChainScene

    win = _window_with(qtbot, monkeypatch, blend_view)
    scene = win.views["blend"].scene
    fits = _Count(monkeypatch, ChainScene, "_fit_balls")
    with scene.one_framing():
        with scene.one_framing():
            scene.reset_camera()
            scene.reset_camera()
        assert fits.calls == 0  # the outer block is still open
    assert fits.calls == 1
    with scene.one_framing():
        pass
    assert fits.calls == 1
    scene.reset_camera()
    assert fits.calls == 2


def test_the_euler_lesson_frames_its_gimbal_in_one_pass(qtbot, monkeypatch):
    win = _window_with(qtbot, monkeypatch, euler_view)
    view = win.views["euler"]
    built = _Count(monkeypatch, euler_view, "gimbal_rings")
    keys = [k for k, _label, _tip in view.model.preset_items()]
    for key in [*keys[1:], keys[0]]:
        view.preset_box.setCurrentIndex(view.preset_box.findData(key))
        _settle()
    assert built.calls <= 3 * len(keys), built.calls   # the pose now, and all of t at once


def test_gimbal_rings_of_many_poses_are_the_rings_of_each(rng):
    for order in ("YXZ", "xyz", "ZXZ", "zyx"):
        angles = rng.uniform(-np.pi, np.pi, (6, 3))
        angles[2, 1] = np.pi / 2 if order.lower()[0] != order.lower()[2] else 0.0
        many = G.gimbal_rings(angles, order)
        for k, a in enumerate(angles):
            one = G.gimbal_rings(a, order)
            for field in ("orientations", "pivots", "normals"):
                assert np.array_equal(getattr(many, field)[k], getattr(one, field)), field
        assert (G.gimbal_locked(angles, order).tolist()
                == [G.gimbal_readout(a, order).locked for a in angles])
        assert G.gimbal_locked(angles, order)[2]


def test_a_preset_change_places_no_callout_it_then_removes(qtbot, monkeypatch):
    win = _window_with(qtbot, monkeypatch, wrap_view)
    view = win.views["wrap"]
    placed = _Count(monkeypatch, BoxedLabel, "_free_spot", lambda self, *rest: self)
    keys = [k for k, _label, _tip in view.model.preset_items()]
    for key in [*keys[1:], keys[0]]:
        before = len(placed.notes)
        view.preset_box.setCurrentIndex(view.preset_box.findData(key))
        _settle()
        shown = {lb for plot in view.plots.plots.values()
                 for lb in plot.getViewBox().childGroup.childItems() if isinstance(lb, BoxedLabel)}
        assert shown, key   # the wrapping lesson's peaks leave the top: labelled
        # Every label placed during the change is still there after it: the old
        # ones were not placed again for the new y range on their way out.
        assert len(placed.notes) > before, key  # labels were placed: the check below counts
        gone = [lb for lb in placed.notes[before:] if lb not in shown]
        assert gone == [], (key, len(gone))


def test_a_label_placed_again_as_it_was_is_not_searched_again(qtbot, monkeypatch):
    plot = _shown(qtbot, pg.PlotWidget(), 600, 400)
    x = np.linspace(0.0, 1.0, 400)
    curve = {"y": np.sin(6 * x)}
    plot.plot(x, curve["y"])
    plot.setYRange(-1.5, 1.5, padding=0)
    label = BoxedLabel("↑ peak 1.00\nat t = 0.50", fraction=0.5, stack=[],
                       obstacles=lambda: [np.column_stack([x, curve["y"]])])
    label.setPos(0.5, 1.5)   # as the plots do: the point first, then into the plot
    plot.addItem(label, ignoreBounds=True)
    _settle()
    searched = _Count(monkeypatch, plot_label, "blocked_spots")
    spot = label.textItem.pos()
    for _ in range(3):
        label.updateTextPos()
    assert searched.calls == 0 and label.textItem.pos() == spot
    # New curves (a line across the top): searched again (each form once: a
    # leader up to the top crosses the line in all, and a spot whose leader
    # crosses none is looked for in every form before one that crosses),
    # then not again, and the spot is the one a fresh search finds.
    curve["y"] = np.full_like(x, 1.3)
    label.updateTextPos()
    calls = searched.calls
    assert calls >= 1
    label.updateTextPos()
    assert searched.calls == calls
    fresh = BoxedLabel("↑ peak 1.00\nat t = 0.50", fraction=0.5, stack=[],
                       obstacles=lambda: [np.column_stack([x, curve["y"]])])
    fresh.setPos(0.5, 1.5)
    plot.addItem(fresh, ignoreBounds=True)
    _settle()
    assert fresh.textItem.pos() == label.textItem.pos() != spot


def test_the_plots_lay_out_their_axis_titles_only_when_they_change(qtbot, monkeypatch):
    from quatlab.rendering.curve_plots import CurvePlots

    plots = _shown(qtbot, CurvePlots(), 900, 300)
    plots.set_x_axis("t", None, (0.0, 1.0))
    titled = _Count(monkeypatch, pg.AxisItem, "setLabel")
    plots.set_x_axis("t", None, (0.0, 2.0))   # a new range, the same titles
    assert titled.calls == 0
    assert plots.plots["angle"].getAxis("bottom").labelText == "t"
    plots.set_x_axis("time", "s", (0.0, 2.0))
    assert titled.calls > 0
    for item in plots.plots.values():
        assert item.getAxis("bottom").labelText == "time (s)"
        assert item.getAxis("bottom").label.isVisible()
    assert "°/s" in plots.plots["speed"].getAxis("left").labelText


def test_a_shorter_explanation_keeps_the_stage_as_it_was(qtbot, monkeypatch):
    """Each preset's first text set the explanation's height over the stage, so a
    preset with a shorter text resized the 3D view and the plots (a second paint
    of both and a camera fit, about 30 ms of a change): the height now only grows
    at a width, and switching back and forth keeps one layout."""
    from quatlab.app.qt import same_keys_view

    win = _window_with(qtbot, monkeypatch, same_keys_view)
    view = win.views["engines"]
    area, scene = view.explanation_area, view.scene.widget

    def show(key):
        view.preset_box.setCurrentIndex(view.preset_box.findData(key))
        _settle()
        return area.height(), scene.height()

    keys = [k for k, _label, _tip in view.model.preset_items()]
    seen = [show(k) for k in keys]
    tallest = max(h for h, _s in seen)
    assert len({h for h, _s in seen}) > 1  # the case under test: texts of other heights
    again = [show(k) for k in reversed(keys)]
    assert {h for h, _s in again} == {tallest}
    assert len({s for _h, s in again}) == 1, again  # the 3D view keeps its size
    # A new width lays the text out anew: the height follows the text there again.
    win.resize(1300, 900)
    _settle()
    assert area.height() <= tallest
