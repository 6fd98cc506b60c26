"""Cursor dots of curves that meet: every curve's colour stays on screen, at the value.

Pixels: the plot is grabbed and the disc around the cursor where two (or
five) curves share a value holds pixels of each curve's colour (one dot
drawn over the other showed only the top one's). Geometry: the shared dot is
centred on the value, and dots apart stay single dots. The grouping itself is
checked against a plain union of every pair closer than a diameter.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.rendering import themes
from quatlab.rendering.cursor_dots import dot_groups
from quatlab.rendering.curve_plots import CurvePlots
from quatlab.rendering.series import Series
from quatlab.rendering.style import METHOD_COLORS
from quatlab.rendering.theme_apply import restyle

X = np.linspace(0.0, 1.0, 101)
#: Okabe-Ito colours, far apart in every theme.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


def _pairs_oracle(y: np.ndarray, diameter: float) -> list[set[int]]:
    """Groups as the connected parts of "closer than a diameter" (every pair tried)."""
    parent = list(range(len(y)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(y)):
        for j in range(i):
            if abs(y[i] - y[j]) < diameter:
                parent[root(i)] = root(j)
    parts: dict[int, set[int]] = {}
    for i in range(len(y)):
        parts.setdefault(root(i), set()).add(i)
    return sorted(parts.values(), key=min)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-500, 500, allow_nan=False), max_size=8),
       st.floats(1.0, 30.0))
def test_groups_are_the_dots_chained_closer_than_a_diameter(ys, diameter):
    y = np.array(ys, dtype=np.float64)
    groups = dot_groups(y, diameter)
    got = sorted(({i for i in range(len(y)) if groups[i] == g} for g in set(groups.tolist())),
                 key=min)
    assert got == _pairs_oracle(y, diameter)


def _plots(qtbot, series_ys: list[np.ndarray], theme: str = "light") -> CurvePlots:
    themes.set_current(theme)
    plots = CurvePlots()
    qtbot.addWidget(plots)
    series = [Series(f"s{k}", f"curve {k}", COLOURS[k], k % 2 == 1, X, y)
              for k, y in enumerate(series_ys)]
    with plots.batch():
        plots.set_series("angle", series)
        plots.set_series("speed", series)
    plots.resize(900, 420)
    plots.show()
    qtbot.waitExposed(plots)
    restyle(plots)
    plots.set_cursor(0.5)
    QtWidgets.QApplication.processEvents()
    return plots


def _colours_near(plots: CurvePlots, plot: str, value: float, colours, radius: float):
    """How many pixels of each colour lie within ``radius`` px of (cursor, ``value``)."""
    view = plots._view
    img = view.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    ratio = img.devicePixelRatio() or 1.0
    vb = plots.plots[plot].getViewBox()
    centre = view.mapFromScene(vb.mapViewToScene(QtCore.QPointF(plots.cursor(), value)))
    cx, cy = centre.x() * ratio, centre.y() * ratio
    r = radius * ratio
    found = dict.fromkeys(colours, 0)
    targets = {c: QtGui.QColor(themes.themed(c)) for c in colours}
    for px in range(int(cx - r), int(cx + r) + 2):
        for py in range(int(cy - r), int(cy + r) + 2):
            if (px - cx) ** 2 + (py - cy) ** 2 > r * r:
                continue
            got = img.pixelColor(px, py)
            for c, want in targets.items():
                if max(abs(got.red() - want.red()), abs(got.green() - want.green()),
                       abs(got.blue() - want.blue())) <= 24:
                    found[c] += 1
    return found


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_two_curves_at_one_value_show_both_colours_at_the_cursor(qtbot, theme):
    same = 40.0 + 20.0 * X
    plots = _plots(qtbot, [same, same, 150.0 - 50.0 * X], theme)
    # Inside a single dot's radius (9 px wide): there one dot drawn over the
    # other showed only its own colour, covering both curves' lines.
    found = _colours_near(plots, "angle", 50.0, COLOURS[:2], 4.5)
    assert all(n >= 4 for n in found.values()), found
    # The curve far from them keeps its own plain dot.
    alone = _colours_near(plots, "angle", 125.0, COLOURS[:3], 3.5)
    assert alone[COLOURS[2]] >= 20 and alone[COLOURS[0]] == alone[COLOURS[1]] == 0, alone


def test_five_curves_at_one_value_show_five_colours(qtbot):
    """The engines tab: five of six engines agree by design."""
    same = 10.0 + 60.0 * X
    plots = _plots(qtbot, [same] * 5 + [150.0 - 50.0 * X])
    found = _colours_near(plots, "angle", 40.0, COLOURS[:5], 5.0)
    assert all(n >= 3 for n in found.values()), found


def test_the_shared_dot_is_centred_on_the_value_and_dots_apart_stay_apart(qtbot):
    plots = _plots(qtbot, [40.0 + 20.0 * X, 40.0 + 20.0 * X, 150.0 - 50.0 * X])
    dots = plots._dots["angle"]
    # The data stay one spot per curve, at its value.
    assert dots.getData()[1].tolist() == pytest.approx([50.0, 50.0, 125.0])
    drawn = sorted(dots.groups(), key=lambda g: g[1])
    assert [sorted(g[3]) for g in drawn] == [[0, 1], [2]]
    assert drawn[0][:2] == pytest.approx((0.5, 50.0))
    assert drawn[1][:2] == pytest.approx((0.5, 125.0))
    size = float(dots.opts["size"])
    assert drawn[0][2] == pytest.approx(size * np.sqrt(2)) and drawn[1][2] == size


def test_dots_of_different_values_stay_apart_even_when_they_overlap(qtbot):
    """Two values most of a dot apart are two dots, each at its value: merged, SQUAD's
    60 and 78 deg/s at 1024x768 and 150 % in Chinese made one dot at 70."""
    plots = _plots(qtbot, [40.0 + 20.0 * X, 40.0 + 20.0 * X, 150.0 - 50.0 * X])
    dots = plots._dots["angle"]
    vb = plots.plots["angle"].getViewBox()
    per_px = abs(vb.viewPixelSize()[1])
    size = float(dots.opts["size"])
    gap = 0.7 * size * per_px  # 0.7 of a dot apart: the dots overlap
    with plots.batch():
        plots.set_series("angle", [
            Series("s0", "curve 0", COLOURS[0], False, X, 40.0 + 20.0 * X),
            Series("s1", "curve 1", COLOURS[1], True, X, 40.0 + gap + 20.0 * X),
            Series("s2", "curve 2", COLOURS[2], False, X, 150.0 - 50.0 * X)])
    plots.set_cursor(0.5)
    QtWidgets.QApplication.processEvents()
    drawn = sorted(dots.groups(), key=lambda g: g[1])
    assert [g[3] for g in drawn] == [[0], [1], [2]], drawn
    assert [g[1] for g in drawn[:2]] == pytest.approx([50.0, 50.0 + gap])


def test_the_two_keys_tab_shows_shortest_nlerp_beside_shortest_slerp(qtbot, main_window):
    """negated-20 at t = 0.5: both shortest methods turn at 20 deg/t."""
    win = main_window("negated-20", 0.5, (1280, 720))
    plots = win.lesson.plots
    colours = (METHOD_COLORS["shortest_nlerp"], METHOD_COLORS["shortest_slerp"])
    found = _colours_near(plots, "speed", 20.0, colours, 4.5)
    assert all(n >= 4 for n in found.values()), found


@pytest.mark.gl
def test_the_wrap_tabs_nlerp_and_slerp_are_two_dots_at_a_lecture_hall_size(qtbot):
    """Euler wrap at 1024x768 and 150 %, t = 0.35: naive NLERP's 22.5 deg and SLERP's 7.0
    deg stand 6.5 px apart on the angle plot, under half a 13.5 px dot, and were drawn
    as one pie dot between them, which reads as one value."""
    from lesson_checks import build_window, settle, show_case

    win = build_window((1024, 768), 1.5)
    try:
        show_case(win, "wrap", "yaw_wrap", 0.35)
        settle(8)
        plots = win.views["wrap"].plots
        dots = plots._dots["angle"]
        order = [s.name for s in plots._shown("angle")]  # the dots' order
        assert len(order) == len(dots.data)
        naive, slerp = order.index("naive"), order.index("slerp")
        ys = dots.getData()[1]
        per_px = abs(dots.getViewBox().viewPixelSize()[1])
        apart = abs(ys[naive] - ys[slerp]) / per_px
        size = float(dots.opts["size"])
        assert 3.0 < apart < 0.5 * size, (apart, size)  # the case: closer than half a dot
        drawn = {tuple(g[3]): g for g in dots.groups()}
        assert (naive,) in drawn and (slerp,) in drawn, drawn
        for i in (naive, slerp):
            assert drawn[(i,)][1] == pytest.approx(ys[i])
            assert drawn[(i,)][2] == pytest.approx(size)
    finally:
        win.close()
        win.deleteLater()
        settle()
