"""What the plots draw of long runs: a min/max envelope per pixel column, peaks kept.

A 10,000-step drift drawn point by point took most of a second to paint
(antialiased paths); the plots now draw at most about two points per pixel
column, the lowest and highest sample in it, so every spike stays visible,
while hover and export keep every sample.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.series import Series


@pytest.fixture
def plots(qtbot):
    widget = CurvePlots()
    qtbot.addWidget(widget)
    widget.resize(900, 360)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _long_series(plots, n=10_001, spike_at=5_003):
    rng = np.random.default_rng(1)
    x = np.arange(n, dtype=float)
    y = 1.0 + 0.1 * rng.standard_normal(n)
    y[spike_at] = 7.5       # one sample: a subsample of the curve would miss it
    y[spike_at + 1] = -4.0  # and a dip right after it
    plots.set_x_axis("step", None, (0.0, float(n - 1)))
    plots.set_y_axis("angle", "value", (-5.0, 8.0))
    plots.set_series("angle", [Series("q", "q", "#E69F00", False, x, y)])
    return x, y


def test_a_long_series_is_drawn_as_its_envelope_with_every_sample_kept(qtbot, plots):
    x, y = _long_series(plots)
    qtbot.wait(20)
    item = plots.curve_item("angle", "q")
    x0, y0 = item.getOriginalDataset()
    np.testing.assert_array_equal(x0, x)  # hover and export read every sample
    np.testing.assert_array_equal(y0, y)
    xd, yd = item.getData()  # what is drawn
    width = plots.plots["angle"].getViewBox().width()
    assert width > 300
    assert len(xd) <= 2.5 * width < len(x)  # drawn point by point before: 10,001
    # The spike and the dip are drawn, at their own step (to the bin).
    assert yd.max() == 7.5 and yd.min() == -4.0
    bin_width = len(x) / (len(xd) / 2)
    assert abs(xd[np.argmax(yd)] - 5_003) <= bin_width
    assert abs(xd[np.argmin(yd)] - 5_004) <= bin_width


def test_the_envelope_is_drawn_in_pixels(qtbot, plots):
    """Pixels: the one-sample spike crosses y = 7, which the noise (about 1) never reaches."""
    _long_series(plots)
    qtbot.wait(50)
    vb = plots.plots["angle"].getViewBox()
    view = plots.findChild(pg.GraphicsLayoutWidget)

    def orange_near(step, value):
        at = view.mapTo(plots, view.mapFromScene(vb.mapViewToScene(pg.Point(step, value))))
        row = [image.pixelColor(at.x() + dx, at.y()) for dx in range(-6, 7)]
        return any(c.red() > 180 and 100 < c.green() < 200 and c.blue() < 100 for c in row)

    image = plots.grab().toImage()
    assert orange_near(5_003, 7.0)       # the spike
    assert not orange_near(2_000, 7.0)   # nothing else up there
    assert orange_near(2_000, 1.0)       # the noise band


def _swinging_series(plots, swings=600, n=12_001):
    """A speed that spikes to the top of the plot ``swings`` times (a sign-unaware SQUAD)."""
    x = np.linspace(0.0, 20.0, n)
    y = 100.0 + 600.0 * (np.sin(np.pi * swings * x / 20.0) ** 8)
    smooth = 300.0 + 200.0 * np.sin(2 * np.pi * x / 20.0)
    plots.set_x_axis("time", "s", (0.0, 20.0))
    plots.set_y_axis("speed", "speed", (0.0, 720.0))
    plots.set_series("speed", [Series("spiky", "spiky", "#E69F00", True, x, y),
                               Series("smooth", "smooth", "#56B4E9", False, x, smooth)])
    return x, y


def test_a_curve_that_scribbles_is_stroked_segment_by_segment(qtbot, plots):
    """Qt fills a wide pen's outline of a path in one go: with hundreds of
    swings across the plot that took 0.3-1.9 s, so such a curve is drawn as
    separate segments; an ordinary curve keeps its continuous, dashed path."""
    _swinging_series(plots)
    qtbot.wait(20)
    spiky, smooth = plots.curve_item("speed", "spiky"), plots.curve_item("speed", "smooth")
    assert spiky.scribbles() and not smooth.scribbles()
    assert spiky.curve._shouldUseDrawLineSegments(spiky.curve.opts["pen"])
    assert not smooth.curve._shouldUseDrawLineSegments(smooth.curve.opts["pen"])
    # Zoomed in far enough, the same curve swings a few times only: a path again.
    plots.plots["speed"].setXRange(10.0, 10.2, padding=0)
    qtbot.wait(20)
    assert not spiky.scribbles()
    assert not spiky.curve._shouldUseDrawLineSegments(spiky.curve.opts["pen"])


def test_a_scribble_still_draws_its_peaks_and_troughs(qtbot, plots):
    """Pixels: segment by segment, the spikes still reach the top and the troughs the bottom."""
    _swinging_series(plots)
    plots.set_method_visible("smooth", False)
    qtbot.wait(50)
    vb = plots.plots["speed"].getViewBox()
    view = plots.findChild(pg.GraphicsLayoutWidget)
    image = plots.grab().toImage()

    def orange_columns(value):
        hits = 0
        for t in np.linspace(2.0, 18.0, 17):
            at = view.mapTo(plots, view.mapFromScene(vb.mapViewToScene(pg.Point(t, value))))
            row = [image.pixelColor(at.x() + dx, at.y()) for dx in range(-4, 5)]
            hits += any(c.red() > 180 and 100 < c.green() < 200 and c.blue() < 100 for c in row)
        return hits

    assert orange_columns(680.0) >= 12   # the peaks (700) at nearly every place looked at
    assert orange_columns(110.0) >= 12   # and the troughs (100)
