"""Scrubbing the rig view: what a time change repaints, and that the cheaper drawing is the same.

A change of time moves the cursors of the component plot and the timeline;
their curves, symbols and axes did not change and are re-blitted from a
cache, not drawn again. The 3D view's meshes are posed as one soup; the
oracles are plain per-part matrix products and the pixels of the view.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtGui, QtWidgets

from quatlab.app.qt import keyframes_view as KV
from tests.test_rig_view import DATA, ROBOT, open_rig


@pytest.fixture
def view(keyframes_window) -> KV.KeyframesView:
    return keyframes_window.views["keyframes"]


def _settle() -> None:
    for _ in range(3):
        QtWidgets.QApplication.processEvents()


def _rgb(widget: QtWidgets.QWidget) -> np.ndarray:
    img = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    return rows[:, : 3 * img.width()].reshape(img.height(), img.width(), 3).astype(int)


def _count_paints(monkeypatch, cls) -> dict:
    """Count ``cls.paint`` calls per item (Qt calls the Python method found on the class)."""
    counts: dict = {}
    original = cls.paint

    def paint(self, *args):
        counts[id(self)] = counts.get(id(self), 0) + 1
        return original(self, *args)

    monkeypatch.setattr(cls, "paint", paint)
    return counts


def test_moving_the_time_repaints_the_cursors_not_the_curves_and_symbols(view, monkeypatch):
    open_rig(view, ROBOT)  # Head: 81 keys, drawn with symbols
    panel, pb = view.rig_panel, view.playback
    plot = panel.components
    pb.set_time(1.0)
    _settle()
    before = _rgb(plot)
    lines = _count_paints(monkeypatch, pg.PlotCurveItem)
    symbols = _count_paints(monkeypatch, pg.ScatterPlotItem)
    axes = _count_paints(monkeypatch, pg.AxisItem)
    cursors = _count_paints(monkeypatch, pg.InfiniteLine)
    pb.set_time(1.5)
    _settle()
    after = _rgb(plot)
    # The cursor moved: the picture changed, and the cursor line was drawn ...
    assert np.abs(after - before).max() > 100
    assert id(plot.cursor) in cursors and id(view.timeline._cursor) in cursors
    # ... over curves, symbols and axes copied from their caches.
    for curve in plot.curves:
        assert id(curve.curve) not in lines and id(curve.scatter) not in symbols
    for axis in (*(plot.getPlotItem().getAxis(s) for s in ("left", "bottom")),
                 view.timeline.getPlotItem().getAxis("bottom")):
        assert id(axis) not in axes
    # Going back draws the first picture again.
    pb.set_time(1.0)
    _settle()
    assert np.abs(_rgb(plot) - before).max() <= 2  # antialiased edges blended once more


def test_a_new_track_redraws_the_cached_curves(view):
    open_rig(view, ROBOT)
    panel, model = view.rig_panel, view.model
    plot = panel.components
    first = plot.curves[0].getData()[1].copy()
    _settle()
    shown = _rgb(plot)
    other = next(k for k, t in enumerate(model.tracks)
                 if t.animation_index == model.tracks[model.selected_track].animation_index
                 and not np.allclose(t.values[:, 0], first))
    model.select_track(other)
    _settle()
    assert not np.allclose(plot.curves[0].getData()[1], first)
    assert np.abs(_rgb(plot) - shown).max() > 100  # not the old curves from the cache


@pytest.mark.parametrize("name", ["RobotExpressive.glb", "CesiumMilkTruck.glb"])
def test_timeline_and_plots_follow_the_time(view, name):
    open_rig(view, DATA / name)
    pb = view.playback
    lo, hi = pb.range
    for t in (lo + 0.25 * (hi - lo), lo + 0.75 * (hi - lo)):
        pb.set_time(t)
        _settle()
        assert view.timeline._cursor.value() == pytest.approx(t)
        assert view.rig_panel.components.cursor.value() == pytest.approx(t)
