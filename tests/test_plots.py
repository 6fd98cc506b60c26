"""CurvePlots: model -> widget (what is drawn), widget -> model (signals), exports, pixels.

The reference figures come from docs/presets.md (negated-20, seed 000), not from the code
under test: identity -> -(20 deg about Z) sweeps 170 deg at t = 0.5 the naive
way and 10 deg the shortest way.
"""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import numpy as np
import pyqtgraph as pg
import pytest
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.math import quaternion as Q
from quatlab.math.curves import METHODS, compute_curves
from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.series import PLOTS, Series
from quatlab.rendering.style import METHOD_COLORS

HALF = np.radians(10.0)
#: -(20 deg about Z), (w, x, y, z): the negated-20 preset.
NEG20 = -np.array([np.cos(HALF), 0.0, 0.0, np.sin(HALF)])


@pytest.fixture
def plots(qtbot):
    widget = CurvePlots()
    qtbot.addWidget(widget)
    widget.resize(1000, 360)
    return widget


@pytest.fixture
def neg20():
    return compute_curves(Q.IDENTITY, NEG20)


@pytest.fixture
def q_to_minus_q():
    q = Q.from_axis_angle([1.0, 0.0, 0.0], np.radians(50.0))
    return compute_curves(q, -q)


def texts(plots, plot):
    return [it.toPlainText() for it in plots.plots[plot].items if isinstance(it, pg.TextItem)]


def view_of(plots):
    return plots.findChild(pg.GraphicsLayoutWidget)


def show(qtbot, plots):
    plots.show()
    qtbot.waitExposed(plots)
    QtWidgets.QApplication.processEvents()


# -- model -> widget ----------------------------------------------------------------


def test_plotted_data_are_the_curves_arrays(plots, neg20):
    plots.set_curves(neg20)
    for name in METHODS:
        for plot, expected in (("angle", neg20[name].angle_deg),
                               ("speed", neg20[name].speed_deg)):
            # The arrays handed to the plot (hover and export read them; what
            # is drawn is their envelope per pixel column: tests/test_plot_display.py).
            x, y = plots.curve_item(plot, name).getOriginalDataset()
            np.testing.assert_array_equal(x, neg20.t)
            np.testing.assert_array_equal(y, expected)
    mid = int(np.flatnonzero(neg20.t == 0.5)[0])
    _, naive = plots.curve_item("angle", "naive_nlerp").getOriginalDataset()
    _, shortest = plots.curve_item("angle", "shortest_nlerp").getOriginalDataset()
    assert naive[mid] == pytest.approx(170.0, abs=1e-9)
    assert shortest[mid] == pytest.approx(10.0, abs=1e-9)


def test_set_curves_updates_the_same_items(plots, neg20, q_to_minus_q):
    before = {(p, m): plots.curve_item(p, m) for p in PLOTS for m in METHODS}
    plots.set_curves(neg20)
    n_items = {p: len(plots.plots[p].items) for p in PLOTS}
    plots.set_curves(q_to_minus_q)
    plots.set_curves(neg20)
    assert all(plots.curve_item(p, m) is item for (p, m), item in before.items())
    # Only the annotations (gap markers, peak labels) come and go.
    assert {p: len(plots.plots[p].items) for p in PLOTS} == n_items


def test_angle_axis_and_labels(plots):
    angle, speed = plots.plots["angle"], plots.plots["speed"]
    lo, hi = angle.viewRange()[1]
    assert lo <= 0 and hi >= 360
    assert "path angle (°)" in angle.getAxis("left").labelText
    assert "angular speed (°/t)" in speed.getAxis("left").labelText
    assert angle.getAxis("bottom").labelText == "t"
    reference = [it for it in angle.items
                 if isinstance(it, pg.InfiniteLine) and it.angle == 0]
    assert [line.value() for line in reference] == [180]


def test_collapse_and_antipodes_are_labelled_gaps(plots, q_to_minus_q):
    plots.set_curves(q_to_minus_q)
    mid = int(np.flatnonzero(q_to_minus_q.t == 0.5)[0])
    item = plots.curve_item("angle", "naive_nlerp")
    assert item.opts["connect"] == "finite"
    _, y = item.getOriginalDataset()
    assert np.isnan(y[mid]) and np.isfinite(y[mid - 1]) and np.isfinite(y[mid + 1])
    # The drawn path breaks there too, however it is downsampled for the screen.
    xd, yd = item.getData()
    near = np.abs(xd - 0.5) <= 0.01
    assert np.isnan(yd[near]).any() and np.isfinite(yd[~near]).all()
    for plot in PLOTS:
        labels = texts(plots, plot)
        assert any("naive NLERP collapse: |q(t)| = 0" in s and "t = 0.5" in s for s in labels)
        assert any("naive SLERP undefined (antipodes)" in s for s in labels)
        # The collapse is a dashed line at t = 0.5, the antipodes a band over (0, 1).
        lines = [it for it in plots.plots[plot].items
                 if isinstance(it, pg.InfiniteLine) and not it.movable and it.angle == 90]
        assert [line.value() for line in lines] == [pytest.approx(0.5)]
        bands = [it for it in plots.plots[plot].items if isinstance(it, pg.LinearRegionItem)]
        assert len(bands) == 1 and bands[0].getRegion() == pytest.approx((0.0, 1.0))
    # Hiding naive NLERP removes its label, not the other.
    plots.set_method_visible("naive_nlerp", False)
    labels = texts(plots, "angle")
    assert not any("collapse" in s for s in labels)
    assert any("antipodes" in s for s in labels)


def test_speed_range_keeps_a_collapse_spike_readable(plots, neg20):
    plots.set_curves(neg20)
    peak = np.nanmax(neg20["naive_nlerp"].speed_deg)
    assert peak > 2000  # the spike this policy is for
    top = plots.plots["speed"].viewRange()[1][1]
    assert 360 <= top < peak / 2
    # Labelled with its peak; "at t = 0.50" too where a clear spot holds both lines
    # (a callout covers no curve and no cursor: the shorter form where it must).
    assert [t for t in texts(plots, "speed")
            if t.split("\n")[0] == "↑ naive NLERP peak 2,620"], texts(plots, "speed")
    # Without the spike, everything fits and nothing is labelled.
    plots.set_method_visible("naive_nlerp", False)
    top = plots.plots["speed"].viewRange()[1][1]
    assert 340 < top < 400
    assert texts(plots, "speed") == []


# -- cursor ---------------------------------------------------------------------------


def cursor_lines(plots):
    return [next(it for it in plots.plots[p].items
                 if isinstance(it, pg.InfiniteLine) and it.movable) for p in PLOTS]


def test_set_cursor_moves_both_lines_and_dots_without_emitting(qtbot, plots, neg20):
    plots.set_curves(neg20)
    with qtbot.assertNotEmitted(plots.cursorMoved):
        plots.set_cursor(0.25)
        plots.set_cursor(7.0)   # clamped
        plots.set_cursor(0.5)
    assert [line.value() for line in cursor_lines(plots)] == [0.5, 0.5]
    assert plots.cursor() == 0.5
    dots = plots._dots["angle"].getData()
    assert np.all(dots[0] == 0.5)
    expected = sorted(neg20[m].angle_deg[250] for m in METHODS)
    np.testing.assert_allclose(sorted(dots[1]), expected)
    assert pytest.approx(170.0) in list(dots[1])
    with pytest.raises(ValueError, match="t must be finite"):
        plots.set_cursor(float("nan"))


def test_exact_cursor_values_replace_interpolation(qtbot, plots, neg20):
    plots.set_curves(neg20)
    t = 0.3217  # between samples
    exact = compute_curves(Q.IDENTITY, NEG20, t=[t])
    values = {m: (exact[m].angle_deg[0], exact[m].speed_deg[0]) for m in METHODS}
    plots.set_cursor(t, values)
    ys = plots._dots["speed"].getData()[1]
    np.testing.assert_allclose(sorted(ys), sorted(v[1] for v in values.values()))
    # A NaN value means "no dot" for that curve.
    plots.set_cursor_values({**values, "naive_slerp": (np.nan, np.nan)})
    assert len(plots._dots["angle"].getData()[0]) == 3


def test_dragging_either_line_emits_and_moves_the_other(qtbot, plots, neg20):
    plots.set_curves(neg20)
    angle_line, speed_line = cursor_lines(plots)
    with qtbot.waitSignal(plots.cursorMoved) as blocker:
        speed_line.setValue(0.7)
        speed_line.sigPositionChangeFinished.emit(speed_line)
    assert blocker.args == [pytest.approx(0.7)]
    assert angle_line.value() == pytest.approx(0.7)
    with qtbot.waitSignal(plots.cursorMoved) as blocker:
        angle_line.setValue(1.8)  # beyond the end: the line's bounds clamp it
    assert blocker.args == [1.0]
    assert speed_line.value() == 1.0


def test_clicking_in_a_plot_emits_the_t_under_the_mouse(qtbot, plots, neg20):
    plots.set_curves(neg20)
    show(qtbot, plots)
    view = view_of(plots)
    for plot, t in (("speed", 0.75), ("angle", 0.2)):
        box = plots.plots[plot].getViewBox()
        scene_pos = box.mapViewToScene(QtCore.QPointF(t, box.viewRange()[1][0] + 1))
        pos = view.mapFromScene(scene_pos)
        with qtbot.waitSignal(plots.cursorMoved) as blocker:
            qtbot.mouseClick(view.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
        assert blocker.args[0] == pytest.approx(t, abs=0.01)
        assert plots.cursor() == blocker.args[0]


def test_user_move_then_set_cursor_does_not_loop(qtbot, plots, neg20):
    """The usual wiring: cursorMoved -> model -> slider -> set_cursor."""
    plots.set_curves(neg20)
    received = []
    plots.cursorMoved.connect(lambda t: (received.append(t), plots.set_cursor(round(t, 2))))
    cursor_lines(plots)[0].setValue(0.4321)
    assert received == [pytest.approx(0.4321)]
    assert plots.cursor() == 0.43


# -- visibility ------------------------------------------------------------------------


def test_checkbox_hides_a_method_in_both_plots(qtbot, plots, neg20):
    plots.set_curves(neg20)
    show(qtbot, plots)
    boxes = {b.text(): b for b in plots.findChildren(QtWidgets.QCheckBox)}
    assert list(boxes) == ["naive NLERP", "shortest NLERP", "naive SLERP", "shortest SLERP"]
    with qtbot.waitSignal(plots.visibilityChanged) as blocker:
        qtbot.mouseClick(boxes["naive SLERP"], QtCore.Qt.MouseButton.LeftButton)
    assert blocker.args == ["naive_slerp", False]
    assert not plots.method_visible("naive_slerp")
    assert not any(plots.curve_item(p, "naive_slerp").isVisible() for p in PLOTS)
    assert all(plots.curve_item(p, "naive_nlerp").isVisible() for p in PLOTS)
    # Programmatic toggle updates the checkbox; no signal when nothing changes.
    plots.set_method_visible("naive_slerp", True)
    assert boxes["naive SLERP"].isChecked()
    with qtbot.assertNotEmitted(plots.visibilityChanged):
        plots.set_method_visible("naive_slerp", True)
    with pytest.raises(KeyError, match="nonsense"):
        plots.set_method_visible("nonsense", True)


# -- pixels ------------------------------------------------------------------------------


def colour_pixels(image: QtGui.QImage, hex_colour: str, tol: int = 12) -> int:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    ptr = image.constBits()
    ptr.setsize(image.sizeInBytes())
    bgra = np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine())
    bgra = bgra[:, : image.width() * 4].reshape(image.height(), image.width(), 4)
    c = QtGui.QColor(hex_colour)
    target = np.array([c.blue(), c.green(), c.red()])
    return int(np.all(np.abs(bgra[..., :3].astype(int) - target) <= tol, axis=-1).sum())


def test_every_method_colour_is_drawn_and_hiding_removes_it(qtbot, plots, neg20):
    plots.set_curves(neg20)
    show(qtbot, plots)
    image = view_of(plots).grab().toImage()
    counts = {m: colour_pixels(image, METHOD_COLORS[m]) for m in METHODS}
    assert all(n > 100 for n in counts.values()), counts
    plots.set_method_visible("naive_slerp", False)
    QtWidgets.QApplication.processEvents()
    image = view_of(plots).grab().toImage()
    assert colour_pixels(image, METHOD_COLORS["naive_slerp"]) == 0
    assert colour_pixels(image, METHOD_COLORS["naive_nlerp"]) > 100


# -- export ------------------------------------------------------------------------------


def test_export_png_svg_csv(qtbot, plots, q_to_minus_q, tmp_path):
    plots.set_curves(q_to_minus_q)
    show(qtbot, plots)
    png = plots.export(tmp_path / "plots.png")
    image = QtGui.QImage(str(png))
    assert not image.isNull()
    assert (image.width(), image.height()) == (view_of(plots).width(), view_of(plots).height())
    for m in ("naive_nlerp", "shortest_nlerp"):
        assert colour_pixels(image, METHOD_COLORS[m]) > 50

    svg = plots.export(tmp_path / "plots.svg")
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join(t for t in root.itertext())
    for text in ("naive NLERP", "shortest SLERP", "collapse: |q(t)| = 0", "path angle"):
        assert text in words
    # The figure legend is shown only while exporting.
    assert not plots._legend.isVisible()

    path = plots.export(tmp_path / "plots.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["t"] + [f"{m}_{p}_deg" for m in METHODS for p in PLOTS]
    assert len(rows) == 1 + q_to_minus_q.t.size
    mid = dict(zip(rows[0], rows[1 + 250], strict=True))
    assert float(mid["t"]) == 0.5
    assert mid["naive_nlerp_angle_deg"] == "" and mid["naive_slerp_speed_deg"] == ""
    assert float(mid["shortest_slerp_angle_deg"]) == 0.0
    assert float(rows[-1][rows[0].index("naive_nlerp_angle_deg")]) == pytest.approx(360.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plots.csv", "plots.png", "plots.svg"]


def test_csv_values_round_trip(plots, neg20, tmp_path):
    plots.set_curves(neg20)
    with open(plots.export(tmp_path / "c.csv"), newline="") as fh:
        rows = list(csv.DictReader(fh))
    got = np.array([float(r["naive_nlerp_speed_deg"]) for r in rows])
    np.testing.assert_array_equal(got, neg20["naive_nlerp"].speed_deg)
    assert float(rows[250]["naive_nlerp_angle_deg"]) == pytest.approx(170.0, abs=1e-9)


def test_unknown_suffix_raises_and_writes_nothing(plots, tmp_path):
    for name in ("plots.pdf", "plots"):
        with pytest.raises(ValueError, match=r"unknown suffix .*\.png, \.svg or \.csv"):
            plots.export(tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_failed_export_keeps_the_old_file_and_leaves_no_temp(plots, neg20, tmp_path,
                                                              monkeypatch):
    target = tmp_path / "plots.csv"
    target.write_text("old\n")

    def boom(fd):
        raise RuntimeError("disk full")   # after the temp file got its data

    import os
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        plots.export(target)
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]


# -- generic series ------------------------------------------------------------------------


def test_generic_series_time_axis_and_key_markers(qtbot, plots, tmp_path):
    time = np.linspace(0.0, 2.0, 41)
    joint = Series("elbow", "elbow", "#000000", False, time, 90 * np.sin(time))
    knee = Series("knee", "knee", "#0072B2", True, time[::2], 45 * time[::2])
    plots.set_x_axis("time", "s", (0.0, 2.0))
    plots.set_series("angle", [joint, knee])
    plots.set_series("speed", [joint])
    plots.set_markers([0.0, 0.8, 2.0])
    assert plots.method_names() == ["elbow", "knee"]
    assert [b.text() for b in plots.findChildren(QtWidgets.QCheckBox)] == ["elbow", "knee"]
    assert plots.plots["angle"].getAxis("bottom").labelText == "time (s)"
    assert "(°/s)" in plots.plots["speed"].getAxis("left").labelText
    assert not plots.curve_item("angle", "naive_nlerp").isVisible()
    plots.set_markers([1.0])
    keys = [it for it in plots.plots["speed"].items
            if isinstance(it, pg.InfiniteLine) and not it.movable]
    assert [k.value() for k in keys] == [1.0]
    with qtbot.waitSignal(plots.cursorMoved) as blocker:
        cursor_lines(plots)[0].setValue(1.5)
    assert blocker.args == [1.5]
    header = plots.csv_columns()
    assert header == ["time_s", "elbow_angle_deg", "elbow_speed_deg_per_s", "knee_angle_deg"]
    with open(plots.export(tmp_path / "clip.csv"), newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 41
    assert rows[1]["knee_angle_deg"] == "" and float(rows[2]["knee_angle_deg"]) == 4.5


def test_bad_series_and_plot_names_raise(plots):
    with pytest.raises(ValueError, match="'bad'.*equal length"):
        Series("bad", "bad", "#000000", False, [0, 1], [0, 1, 2])
    with pytest.raises(ValueError, match="plot must be one of"):
        plots.set_series("roll", [])


def test_y_axis_title_and_range_modes(plots):
    time = np.linspace(0.0, 1.0, 11)
    drift = Series("drift", "NLERP chain", "#D55E00", True, time, 1e-9 * time)
    plots.set_series("angle", [drift])
    plots.set_y_axis("angle", "|q| - 1", "auto")
    plots.set_x_axis("time", "s", (0.0, 1.0))  # must not reset the y title
    angle = plots.plots["angle"]
    assert angle.getAxis("left").labelText == "|q| - 1"
    lo, hi = angle.viewRange()[1]
    assert lo < 0.0 < 1e-9 < hi < 1e-8  # the drift fills the plot
    reference = next(it for it in angle.items
                     if isinstance(it, pg.InfiniteLine) and it.angle == 0)
    assert not reference.isVisible()
    # A fixed range labels the curve that leaves its top.
    plots.set_y_axis("angle", "|q| - 1", (0.0, 5e-10))
    assert "↑ NLERP chain peak 1e-09\nat time = 1.00" in texts(plots, "angle")
    # Back to the default: degrees, [0, 360], the half-turn line.
    plots.set_y_axis("angle")
    assert angle.getAxis("left").labelText == "path angle (°)"
    assert reference.isVisible()
    assert angle.viewRange()[1][0] <= 0 and angle.viewRange()[1][1] >= 360
    with pytest.raises(ValueError, match="y_range"):
        plots.set_y_axis("speed", None, (1.0, 1.0))


# -- interrogation: hover, zoom, pan, log ----------------------------------------------


def _viewport_pos(plots, plot, x, y):
    box = plots.plots[plot].getViewBox()
    return view_of(plots).mapFromScene(box.mapViewToScene(QtCore.QPointF(x, y)))


def _send_mouse(widget, kind, pos, button, buttons):
    g = QtCore.QPointF(widget.mapToGlobal(pos))
    ev = QtGui.QMouseEvent(kind, QtCore.QPointF(pos), g, button, buttons,
                           QtCore.Qt.KeyboardModifier.NoModifier)
    QtWidgets.QApplication.sendEvent(widget, ev)


def _hover(plots, x, y):
    """A plain mouse move (no button) over the angle plot at (x, y), sent to the viewport.

    pyqtgraph drops mouse moves that come within 1/mouseRateLimit s (10 ms) of the
    last one, by the wall clock: wait that long first, as a real pointer would.
    """
    import time

    time.sleep(1.5 / pg.getConfigOption("mouseRateLimit"))
    none = QtCore.Qt.MouseButton.NoButton
    _send_mouse(view_of(plots).viewport(), QtCore.QEvent.Type.MouseMove,
                _viewport_pos(plots, "angle", x, y), none, none)


def test_hover_shows_every_methods_value_at_the_pointer(qtbot, plots, neg20):
    plots.set_curves(neg20)
    show(qtbot, plots)
    box = plots.inspector.boxes["angle"]
    assert not box.isVisible()
    _hover(plots, 0.5, 90.0)
    assert box.isVisible() and not plots.inspector.boxes["speed"].isVisible()
    text = box.toPlainText()
    # Reference figures: at t = 0.5 the naive methods have swept 170 deg, the
    # shortest ones 10 deg; all four are listed.
    assert "t = 0.5" in text
    for m in METHODS:
        want = 170 if m.startswith("naive") else 10
        assert f"{plots._series['angle'][m].label}: {want:.4g}" in text
    # A hidden curve is not listed.
    plots.set_method_visible("naive_slerp", False)
    _hover(plots, 0.5, 60.0)
    assert "naive SLERP" not in box.toPlainText()


def test_wheel_zooms_right_drag_pans_and_double_click_resets(qtbot, plots, neg20):
    plots.set_curves(neg20)
    show(qtbot, plots)
    viewport = view_of(plots).viewport()
    vb = plots.plots["angle"].getViewBox()
    whole = vb.viewRange()
    button = plots.inspector.reset_button
    assert not button.isEnabled() and not button.isVisible()
    pos = _viewport_pos(plots, "angle", 0.25, 180.0)
    wheel = QtGui.QWheelEvent(QtCore.QPointF(pos), QtCore.QPointF(viewport.mapToGlobal(pos)),
                              QtCore.QPoint(0, 0), QtCore.QPoint(0, 240),
                              QtCore.Qt.MouseButton.NoButton,
                              QtCore.Qt.KeyboardModifier.NoModifier,
                              QtCore.Qt.ScrollPhase.NoScrollPhase, False)
    QtWidgets.QApplication.sendEvent(viewport, wheel)
    (x0, x1), (y0, y1) = vb.viewRange()
    assert x1 - x0 < 0.8 * (whole[0][1] - whole[0][0])
    assert y1 - y0 < 0.8 * (whole[1][1] - whole[1][0])
    assert x0 < 0.25 < x1  # about the pointer
    assert button.isEnabled() and button.isVisible()
    # Over the plots' top right corner, not a line of the legend row.
    view = view_of(plots)
    assert button.parentWidget() is view
    assert view.rect().contains(button.geometry())
    assert button.geometry().right() > view.width() * 0.8 and button.y() < 10
    # Right drag pans and does not scrub.
    before = vb.viewRange()[0]
    right = QtCore.Qt.MouseButton.RightButton
    start, end = pos, pos + QtCore.QPoint(120, 0)
    with qtbot.assertNotEmitted(plots.cursorMoved):
        _send_mouse(viewport, QtCore.QEvent.Type.MouseButtonPress, start, right, right)
        for k in range(1, 7):
            _send_mouse(viewport, QtCore.QEvent.Type.MouseMove, start + QtCore.QPoint(20 * k, 0),
                        QtCore.Qt.MouseButton.NoButton, right)
        _send_mouse(viewport, QtCore.QEvent.Type.MouseButtonRelease, end, right,
                    QtCore.Qt.MouseButton.NoButton)
    after = vb.viewRange()[0]
    assert after[0] < before[0] - 0.01  # dragged right: the view moved to smaller x
    assert after[1] - after[0] == pytest.approx(before[1] - before[0], rel=1e-6)
    # Left click still scrubs while zoomed.
    with qtbot.waitSignal(plots.cursorMoved) as blocker:
        qtbot.mouseClick(viewport, QtCore.Qt.MouseButton.LeftButton,
                         pos=_viewport_pos(plots, "angle", float(np.mean(after)), 180.0))
    assert blocker.args[0] == pytest.approx(float(np.mean(after)), abs=0.01)
    # Double click (as Qt delivers one: press, release, press, double click,
    # release): the whole range again, and the button says so.
    left, none = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.MouseButton.NoButton
    for kind in ("MouseButtonPress", "MouseButtonRelease", "MouseButtonPress",
                 "MouseButtonDblClick", "MouseButtonRelease"):
        _send_mouse(viewport, getattr(QtCore.QEvent.Type, kind), pos, left,
                    none if kind.endswith("Release") else left)
    np.testing.assert_allclose(vb.viewRange(), whole, atol=1e-9)
    assert not button.isEnabled() and not button.isVisible()
    QtWidgets.QApplication.sendEvent(viewport, wheel)
    button.click()
    np.testing.assert_allclose(vb.viewRange(), whole, atol=1e-9)
    assert not button.isVisible()


def test_log_y_axis_spans_decades(qtbot, plots):
    x = np.arange(5.0)
    drift = np.array([0.0, -1e-16, 1e-12, 3e-8, 1e-2])  # signed, with an exact zero
    plots.set_x_axis("step", None, (0.0, 4.0))
    plots.set_series("angle", [Series("q", "q", "#E69F00", False, x, drift)])
    plots.set_y_axis("angle", "|q| - 1", "auto", log=True)
    _, y = plots.curve_item("angle", "q").getData()
    np.testing.assert_allclose(y[1:], [-16.0, -12.0, np.log10(3e-8), -2.0])
    assert np.isnan(y[0])
    assert plots.plots["angle"].getAxis("left").logMode
    lo, hi = plots.plots["angle"].viewRange()[1]
    assert lo <= -16.0 and -2.0 <= hi < 0.0
    plots.set_cursor(4.0)
    assert plots._dots["angle"].getData()[1].tolist() == pytest.approx([-2.0])
    # The hover readout gives the signed value, not the |y| drawn.
    assert plots.inspector.values_at("angle", 1.0)[0][2] == pytest.approx(-1e-16)
    plots.set_y_axis("angle", "|q| - 1", "auto")
    np.testing.assert_array_equal(plots.curve_item("angle", "q").getData()[1], drift)


def test_a_gap_says_undefined_in_the_language_in_use(plots):
    """The Euler tab's gap at the gimbal lock read "SLERP，绕 Y undefined" in Chinese:
    the series' default gap word was never translated."""
    from quatlab.app import i18n

    before = i18n.current_language()
    i18n.set_language("zh_CN")
    try:
        x = np.linspace(0.0, 1.0, 11)
        y = np.where(np.isclose(x, 0.5), np.nan, x)
        plots.set_series("angle", [Series("a", "SLERP", "#0072B2", False, x, y)])
        labels = texts(plots, "angle")
        assert any("SLERP 未定义" in s for s in labels), labels
        assert not any("undefined" in s for s in labels), labels
    finally:
        i18n.set_language(before)
