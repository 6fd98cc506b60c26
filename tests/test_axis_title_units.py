"""A shortened y-axis title keeps its unit: every lesson plot at projector scale, en and zh_CN.

At 1024x768 and 150 % "rotation from pose 0 (°)" showed as "rotation / from
pose 0" and "angle from the first key (°)" as "angle from / the first key",
in Chinese the engines' and the Keyframes tab's titles too: number axes
without their unit. The unit here is read from the full title by this test's
own pattern (the last group in parentheses with a degree sign in it), not by
the code under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lesson_checks import build_window, settle
from PyQt6 import QtGui, QtWidgets

from quatlab.rendering.axis_title import ELLIPSIS, TitleFitAxis, title_unit
from quatlab.rendering.curve_plots import CurvePlots

pytestmark = pytest.mark.gl

ROBOT = Path(__file__).parent / "data" / "gltf" / "RobotExpressive.glb"
#: The tabs with plots (the S3 view has none), the Keyframes tab with a glTF open.
TABS = ("main", "squad", "blend", "euler", "integrate", "s3", "wrap", "engines", "keyframes")
SIZES = {"1280x720": ((1280, 720), 1.0), "1024x768@150%": ((1024, 768), 1.5)}
_UNIT = re.compile(r"[(（]([^()（）]*°[^()（）]*)[)）]")


def unit_of(title: str) -> str | None:
    """The unit in a title, "°" or "°/t", as the test reads it."""
    units = _UNIT.findall(title)
    return units[-1].strip() if units else None


def shown_axes(view) -> list[TitleFitAxis]:
    """The titled y axes of ``view``'s plots that are on screen."""
    axes = []
    for gv in view.findChildren(QtWidgets.QGraphicsView):
        if gv.isVisible():
            axes += [it for it in gv.scene().items()
                     if isinstance(it, TitleFitAxis) and it.isVisible() and it.labelText]
    return axes


def title_problems(win, tabs=TABS, *, whole: bool = False) -> tuple[list[str], int]:
    """Every shown y title of ``tabs`` whose full title has a unit the shown one lacks
    (``whole``: or that is elided, unit or not); and how many titles with a unit were
    looked at."""
    problems, seen = [], 0
    for tab in tabs:
        win.show_view(tab)
        settle(8)
        view = win.views[tab]
        pages = [None]
        if tab == "keyframes":  # the stored keys and omega share a place
            pages = range(view.rig_panel.plot_tabs.count())
        for page in pages:
            if page is not None:
                view.rig_panel.plot_tabs.setCurrentIndex(page)
                settle(6)
            for axis in shown_axes(view):
                unit, shown = unit_of(axis.labelText), axis.shown_title()
                if any(line.count("‖") % 2 for line in shown.split("\n")):
                    # A norm broken over two lines: "‖RᵀR" over "− I‖" (the lone
                    # "I‖" reads as "≡"), the integration plot in Chinese at 1280x720.
                    problems.append(f"{tab}: {shown!r} breaks inside a norm")
                if "rn" in shown:
                    # On its side at 11 pt the UI font draws "rn" as "m": the Keyframes
                    # tab's "unwrapped turn (°)" read "unwrapped tum (°)".
                    problems.append(f"{tab}: {shown!r} has an 'rn' that reads as 'm'")
                if whole and ELLIPSIS in shown:
                    problems.append(f"{tab}: {axis.labelText!r} elided to {shown!r}")
                if unit is None:
                    continue
                seen += 1
                if unit not in shown.replace("\n", ""):
                    problems.append(f"{tab}: {axis.labelText!r} shown as {shown!r}")
        if tab == "keyframes":
            view.rig_panel.plot_tabs.setCurrentIndex(0)
    return problems, seen


@pytest.fixture
def robot_window(request, qapp):
    """The window at a size of SIZES in a language, the robot open in the Keyframes tab."""
    from quatlab.app import i18n

    size_name, lang = request.param
    i18n.set_language(lang)
    size, zoom = SIZES[size_name]
    win = build_window(size, zoom)
    try:
        win.open_keyframes(ROBOT)
        settle(8)
        yield win
    finally:
        i18n.set_language("en")
        win.close()
        win.deleteLater()
        settle()


CASES = [(s, lang) for s in SIZES for lang in ("en", "zh_CN")]


@pytest.mark.parametrize("robot_window", CASES, indirect=True, ids=[f"{s}-{lg}" for s, lg in CASES])
def test_every_lesson_plot_title_keeps_its_unit(robot_window):
    problems, seen = title_problems(robot_window)
    assert problems == []
    # Two plots in each of the seven lesson tabs, but the blend's "reference pose" and
    # the integration's drift ("(log)" is no unit); the Keyframes tab's turn and error,
    # looked at with each of its two plot pages, and omega.
    assert seen == 2 * 7 - 2 + 2 * 2 + 1


#: The lesson tabs with plots. The Keyframes tab is left out: in presentation mode at
#: 150 % its page scrolls and its plots are 42 px tall, too short for any title.
LESSON_TABS = ("main", "squad", "blend", "euler", "integrate", "wrap", "engines")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_presentation_mode_at_150_percent_shows_short_titles_with_their_units(qapp, lang):
    """Presentation mode draws 1.25 times larger again: at 150 % the two-key tab's
    "angular speed (°/t)" showed as "angular / speed", the engines' titles as
    "pat…" and "off…", the integration's as "| |q|…". Each shows whole, its
    short title with the unit where the title does not fit."""
    from quatlab.app import i18n

    i18n.set_language(lang)
    win = build_window((1024, 768), 1.5)
    try:
        win.set_presenting(True, full_screen=False)
        win.resize(1024, 768)
        settle(8)
        problems, seen = title_problems(win, LESSON_TABS, whole=True)
        assert problems == []
        assert seen == 12  # as above, without the Keyframes tab's three
    finally:
        win.set_presenting(False)
        i18n.set_language("en")
        win.close()
        win.deleteLater()
        settle()


def test_without_a_short_title_the_words_are_elided_and_the_unit_kept(qtbot):
    """Where no form of the title with its unit fits and the owner gave no short title,
    the words give way, not the unit: "rotation fr… (°)", or the unit on a line of its own."""
    plots = CurvePlots()
    qtbot.addWidget(plots)
    plots.set_y_axis("angle", "rotation from pose 0 (°)", "auto")
    axis = plots.plots["angle"].getAxis("left")
    font = QtGui.QFont(axis.label.font())  # in the title's own size, as drawn
    font.setPointSizeF(float(str(axis.labelStyle["font-size"]).rstrip("pt")))
    metrics = QtGui.QFontMetricsF(font)
    # Shorter than "rotation", the title's longest word with the unit on its line.
    room = metrics.horizontalAdvance("rotatio")
    axis.resize(axis.width(), room)
    axis.labelString()
    shown = axis.shown_title()
    assert shown.replace("\n", " ").endswith("(°)") and "…" in shown, shown
    kept = shown.split("…")[0]
    assert kept and "rotation from pose 0".startswith(kept), shown   # words, then "…"
    assert axis.label.toolTip() == "rotation from pose 0 (°)"
    # A short title with the unit comes first.
    plots.set_y_axis("angle", "rotation from pose 0 (°)", "auto", short="rotation (°)")
    # Room for it (pyqtgraph ends a title with a space), not for "rotation from" / "pose 0 (°)".
    short, two = (metrics.horizontalAdvance(t) for t in ("rotation (°) ", "rotation from"))
    assert short < two
    axis.resize(axis.width(), (short + two) / 2)
    axis.labelString()
    assert axis.shown_title() == "rotation (°)"


def test_a_note_in_parentheses_is_no_unit():
    assert title_unit("path angle (°)") == " (°)"
    assert title_unit("角速度（度 / 单位 t）") == "（°/t）"
    assert title_unit("ω (°/s), naive dashed") == " (°/s)"
    assert title_unit("time (s)") == " (s)"
    assert title_unit("| |q| − 1 |   and   ‖RᵀR − I‖   (log)") is None
    assert title_unit("reference pose") is None
