"""CurvePlots updates made cheaper draw what the plain ones drew: batches, cursor dots.

A batch refreshes once and ends as the same changes made one by one; the
cursor dots moved in place end as new dots made at the same t.

Also the repaint policy of the plots' view: one bounding rectangle per
update (a time change dirties a cursor line and its dots in each plot).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtWidgets

from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.series import Series

X = np.linspace(0.0, 2.0, 81)
#: A spike far above everything else (the speed plot labels it) and a NaN gap (marker + label).
SPEED = np.where(np.abs(X - 1.0) < 0.03, 5000.0, 40.0 + 10.0 * np.sin(3 * X))
ANGLE = np.where(np.abs(X - 0.5) < 0.02, np.nan, 80.0 * X)


def _series():
    return {
        "angle": [Series("a", "first", "#0072B2", False, X, ANGLE),
                  Series("b", "second", "#D55E00", True, X, 0.5 * ANGLE)],
        "speed": [Series("a", "first", "#0072B2", False, X, SPEED),
                  Series("b", "second", "#D55E00", True, X, 0.5 * SPEED)],
    }


def _set_everything(plots: CurvePlots, log: bool = False) -> None:
    plots.set_x_axis("time", "s", (0.0, 2.0))
    plots.set_y_axis("angle", "angle (deg)", "auto", log=log)
    for plot, series in _series().items():
        plots.set_series(plot, series)
    plots.set_markers([0.5, 1.5])


def _count_refreshes(plots: CurvePlots) -> list[int]:
    """A counter of the refreshes ``plots`` does (each re-syncs the legend row first)."""
    count = [0]
    sync = plots._sync_checks

    def counted():
        count[0] += 1
        sync()

    plots._sync_checks = counted
    return count


def _state(plots: CurvePlots) -> dict:
    """What the user sees: ranges, curve data, annotations, dots, legend."""
    out = {"checks": [b.text() for b in plots.findChildren(QtWidgets.QCheckBox)]}
    for plot, item in plots.plots.items():
        out[plot, "range"] = np.round(item.viewRange(), 9).tolist()
        out[plot, "texts"] = sorted(it.toPlainText() for it in item.items
                                    if isinstance(it, pg.TextItem))
        out[plot, "gaps"] = sum(isinstance(it, pg.LinearRegionItem) for it in item.items)
        out[plot, "dots"] = np.round(plots._dots[plot].getData()[1], 9).tolist()
        for name in ("a", "b"):
            x, y = plots.curve_item(plot, name).getData()
            out[plot, name] = (np.asarray(x).tolist(), np.nan_to_num(y, nan=-1e300).tolist())
        out[plot, "log"] = item.getAxis("left").logMode
    return out


@pytest.fixture
def two(qtbot):
    made = []
    for _ in range(2):
        w = CurvePlots()
        qtbot.addWidget(w)
        w.resize(1000, 360)
        made.append(w)
    return made


@pytest.mark.parametrize("log", [False, True])
def test_a_batch_refreshes_once_and_draws_what_unbatched_calls_draw(two, log):
    plain, batched = two
    plain_count, batched_count = _count_refreshes(plain), _count_refreshes(batched)
    _set_everything(plain, log)
    with batched.batch():
        _set_everything(batched, log)
        assert batched_count[0] == 0  # nothing refreshed inside the block
    assert plain_count[0] == 4  # x axis, y axis and two series: one refresh each
    assert batched_count[0] == 1
    state = _state(batched)
    assert state == _state(plain)
    # The test sees labels at all: the spike's peak and the gap.
    assert any("peak 5,000" in t for t in state["speed", "texts"])
    assert state["angle", "log"] is log
    if not log:
        # The gap's callout (both curves' gaps share one box, which at this size
        # shows its first line: "first undefined; second undefined").
        assert any("undefined" in t for t in state["angle", "texts"])


def test_batches_nest_and_refresh_even_when_the_block_raises(two):
    plots = two[0]
    count = _count_refreshes(plots)
    with plots.batch():
        with plots.batch():
            plots.set_series("angle", _series()["angle"])
        assert count[0] == 0  # only the outermost block refreshes
        plots.set_series("speed", _series()["speed"])
    assert count[0] == 1
    with pytest.raises(RuntimeError), plots.batch():
        plots.set_series("speed", [])
        raise RuntimeError("boom")
    assert count[0] == 2
    assert plots.method_names() == ["a", "b"]  # the refresh after the raise happened
    assert not plots.curve_item("speed", "a").isVisible()
    # A batch without changes does not refresh.
    with plots.batch():
        pass
    assert count[0] == 2


def test_the_plots_repaint_one_rectangle_per_update(two):
    view = two[0].findChild(pg.GraphicsLayoutWidget)
    assert (view.viewportUpdateMode()
            == QtWidgets.QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)


def _shown(qtbot, widget):
    widget.show()
    qtbot.waitExposed(widget)
    QtWidgets.QApplication.processEvents()


def test_dots_moved_in_place_draw_what_fresh_dots_draw(qtbot, two):
    moved, fresh = two
    for w in two:
        for plot, series in _series().items():
            w.set_series(plot, series)
        w.set_x_axis("time", "s", (0.0, 2.0))
        _shown(qtbot, w)
    for t in np.linspace(0.0, 1.3, 14):  # through the gap at 0.5: a dot hides and comes back
        moved.set_cursor(float(t))
        QtWidgets.QApplication.processEvents()
    fresh.set_cursor(1.3)
    for plot in ("angle", "speed"):
        x, y = moved._dots[plot].getData()
        want = [np.interp(1.3, X, s.y) for s in _series()[plot]]
        np.testing.assert_allclose(x, [1.3, 1.3])
        np.testing.assert_allclose(y, want)
        # The scene knows where the dots are now (hover, bounds), as after setData.
        assert ([p.pos().x() for p in moved._dots[plot].points()]
                == pytest.approx([1.3, 1.3]))
    # In the gap of the angle curves only the speed dots are drawn.
    moved.set_cursor(0.5)
    assert moved._dots["angle"].getData()[0].size == 0
    assert moved._dots["speed"].getData()[0].size == 2
    moved.set_cursor(1.3)
    QtWidgets.QApplication.processEvents()
    # The callouts aside: where one stands depends on where the cursor went
    # (docs/projector.md, a callout the cursor reaches moves behind it), the dots not.
    for w in two:
        for stack in w._label_stack.values():
            for label in stack:
                label.setVisible(False)
    QtWidgets.QApplication.processEvents()
    a = moved.findChild(pg.GraphicsLayoutWidget).grab().toImage()
    b = fresh.findChild(pg.GraphicsLayoutWidget).grab().toImage()
    assert a == b  # pixel for pixel: no dot left behind, none missing


def test_hiding_a_curve_removes_its_dot(two):
    plots = two[0]
    plots.set_x_axis("time", "s", (0.0, 2.0))
    for plot, series in _series().items():
        plots.set_series(plot, series)
    plots.set_cursor(1.5)
    plots.set_method_visible("b", False)
    plots.set_cursor(1.6)
    for plot in ("angle", "speed"):
        x, y = plots._dots[plot].getData()
        assert y.tolist() == pytest.approx([np.interp(1.6, X, _series()[plot][0].y)])


@pytest.mark.parametrize("log", [False, True])
def test_series_passed_again_leave_unchanged_curves_alone(two, log):
    """set_series re-set every curve's data even when it was the same (every
    repaint of the cached curves then stroked them again): a lesson passing its
    series on each change paid for the whole plot. Same values in new arrays are
    left alone; one changed curve is the only one updated; the end state is what
    plots given the same calls from scratch show."""
    kept, fresh = two
    _set_everything(kept, log)
    count = _count_refreshes(kept)
    items = {(p, n): kept.curve_item(p, n) for p in ("angle", "speed") for n in ("a", "b")}
    arrays = {k: (it.xData, it.yData) for k, it in items.items()}
    copies = {p: [Series(s.name, s.label, s.colour, s.dashed, s.x.copy(), s.y.copy())
                  for s in series] for p, series in _series().items()}
    for plot, series in copies.items():
        kept.set_series(plot, series)
    assert count[0] == 0  # nothing changed: nothing refreshed
    assert all(items[k].xData is a[0] and items[k].yData is a[1] for k, a in arrays.items())
    changed = [copies["angle"][0], Series("b", "second", "#D55E00", True, X, 0.25 * ANGLE)]
    kept.set_series("angle", changed)
    assert count[0] == 1
    assert items["angle", "a"].yData is arrays["angle", "a"][1]
    assert items["angle", "b"].yData is not arrays["angle", "b"][1]
    _set_everything(fresh, log)
    fresh.set_series("angle", changed)
    assert _state(kept) == _state(fresh)
