"""Vertical axis titles fit their plot's height at 1280x720 and 1024x768, zoom 100% and 130%.

The advance of each shown line is measured with the label's own font and
size, against the height of the plot it runs beside; the whole title stays
in ``labelText`` and, when shortened, in the tooltip.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtGui, QtWidgets
from text_layout import tick_text_rects

from quatlab.app.commands.screenshot import render_window
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow
from quatlab.rendering.axis_title import title_forms
from quatlab.rendering.curve_plots import CurvePlots

pytestmark = pytest.mark.gl

VIEWS = ("main", "wrap", "integrate", "squad", "blend", "euler", "keyframes")


def _longest_line(axis) -> float:
    font = QtGui.QFont(axis.label.font())
    size = axis.labelStyle.get("font-size")
    if size:
        font.setPointSizeF(float(str(size).rstrip("pt")))
    metrics = QtGui.QFontMetricsF(font)
    return max(metrics.horizontalAdvance(line.strip())
               for line in axis.label.toPlainText().splitlines())


def test_title_forms_shorten_by_rule():
    assert title_forms("angular speed (deg per unit t)") == [
        "angular speed (deg per unit t)", "angular speed (°/t)", "angular speed"]
    assert title_forms("| |q| − 1 |   and   ‖RᵀR − I‖   (log)") == [
        "| |q| − 1 |   and   ‖RᵀR − I‖   (log)", "| |q| − 1 | and ‖RᵀR − I‖ (log)",
        "| |q| − 1 | and ‖RᵀR − I‖"]
    assert title_forms("角速度（度 / 单位 t）") == [
        "角速度（度 / 单位 t）", "角速度（°/t）", "角速度"]
    assert title_forms("reference pose") == ["reference pose"]


@pytest.mark.parametrize("zoom", [1.0, 1.3])
def test_vertical_axis_titles_fit_the_plot_height(qtbot, zoom):
    """At 1280x720 the wrap lesson cut "angular speed (deg per unit t" at both ends;
    at 130% the main lesson cut "angular speed (deg / t)" and the integrate lesson
    "| |q| − 1 | and ‖RᵀR − I‖" at the top."""
    win = MainWindow(LessonState.from_preset("negated-20"))
    qtbot.addWidget(win)
    win.set_zoom(zoom)
    seen = 0
    for size in ((1280, 720), (1024, 768)):
        for view in VIEWS:
            win.show_view(view)
            render_window(win, size)
            for _ in range(3):
                QtWidgets.QApplication.processEvents()
            for plots in win.views[view].findChildren(CurvePlots):
                for name, item in plots.plots.items():
                    axis = item.getAxis("left")
                    height = item.getViewBox().height()
                    assert height > 100, (view, size, name, height)
                    shown = axis.label.toPlainText().strip()
                    assert _longest_line(axis) <= height, (view, size, zoom, name, shown, height)
                    if " ".join(shown.split()) != " ".join(axis.labelText.split()):
                        assert axis.label.toolTip() == axis.labelText
                    seen += 1
    assert seen == 2 * 2 * len(VIEWS)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_multi_line_title_clears_the_tick_labels(qtbot, lang):
    """In Chinese the integration lesson's two-line title "… and / ‖RᵀR − I‖" ran into
    its "0.0001" tick label at 1280x720 and 1024x768: the axis was widened by one
    line of the title measured without the taller CJK fallback font of the lines shown."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    try:
        win = MainWindow(LessonState.from_preset("negated-20"))
        qtbot.addWidget(win)
        win.show_view("integrate")
        multi = 0
        for size in ((1280, 720), (1024, 768)):
            render_window(win, size)
            for _ in range(3):
                QtWidgets.QApplication.processEvents()
            for plots in win.views["integrate"].findChildren(CurvePlots):
                for name, item in plots.plots.items():
                    axis = item.getAxis("left")
                    if "\n" not in axis.label.toPlainText().strip():
                        continue
                    multi += 1
                    # The title's text as laid out (its document margin is empty).
                    doc = axis.label.document()
                    margin = doc.documentMargin()
                    inner = axis.label.boundingRect().adjusted(margin, margin, -margin, -margin)
                    title = axis.label.mapRectToScene(inner)
                    ticks = tick_text_rects(axis)
                    assert ticks, (size, name)
                    gap = min(rect.left() for rect, _text in ticks) - title.right()
                    assert gap > 0, (lang, size, name, axis.label.toPlainText(), gap,
                                     title, [t for _r, t in ticks])
        assert multi >= 1
    finally:
        i18n.set_language("en")


def test_a_plot_too_short_for_its_title_shows_the_owners_short_title(qtbot):
    """The Keyframes tab's rig plots at 150 % were 76 px tall: "unwrapped turn (deg)"
    was cut to "unw…". A short title the owner gives ("turn (deg)") is shown
    whole instead, on two lines if need be, the full title in the tooltip;
    where the full title fits, it is shown."""
    plots = CurvePlots()
    qtbot.addWidget(plots)
    plots.set_y_axis("angle", "unwrapped turn (deg)", "auto")
    axis = plots.plots["angle"].getAxis("left")
    axis.set_short_title("turn (deg)")
    font = axis.label.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    axis.label.setFont(font)
    metrics = QtGui.QFontMetricsF(font)
    # Taller than "turn" and "(°)", shorter than "unwrapped" (the full title's
    # longest word: no form of it fits).
    room = (max(metrics.horizontalAdvance("turn"), metrics.horizontalAdvance("(°)"))
            + metrics.horizontalAdvance("unwrapped")) / 2
    assert room < metrics.horizontalAdvance("unwrapped")
    axis.resize(axis.width(), room)
    axis.labelString()
    assert axis.shown_title().split() == ["turn", "(°)"]
    assert axis.label.toolTip() == "unwrapped turn (deg)"
    axis.resize(axis.width(), 20 * metrics.horizontalAdvance("unwrapped"))
    axis.labelString()
    assert axis.shown_title() == "unwrapped turn (deg)"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_formula_title_breaks_between_its_terms_only(qtbot, lang):
    """At 1024x768 and 150 % in Chinese the integration lesson's title broke inside a
    norm, "| |q| − 1 | / 与 ‖RᵀR − / I‖", and the lone "I‖" read as "≡": its
    translation had single spaces where the title sets its terms apart with runs
    of them (docs/curves.md, "Axis titles")."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    try:
        win = MainWindow(LessonState.from_preset("negated-20"))
        qtbot.addWidget(win)
        win.set_zoom(1.5)
        win.show_view("integrate")
        render_window(win, (1024, 768))
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        axis = win.views["integrate"].plots.plots["angle"].getAxis("left")
        lines = axis.shown_title().split("\n")
        assert len(lines) >= 2, lines  # the case: too short for one line
        for line in lines:
            assert ("RᵀR" in line) == ("I‖" in line), lines
            assert ("|q|" in line) == ("− 1 |" in line), lines
    finally:
        i18n.set_language("en")
