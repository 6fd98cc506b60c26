"""Explanatory text that names a colour names the colour the current theme draws.

The S3 tab says which balls are the endpoints: black on the light theme,
but the dark themes draw them near-white. The check is against the colour
the 3D item actually has after the theme's walk (its luminance), so the text
and the picture are compared, not the text and the code that wrote it.
"""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets, sip

from quatlab.app import i18n
from quatlab.app.model.state import LessonState
from quatlab.app.qt import s3_view, theme_menu
from quatlab.app.qt.s3_circle import GUIDE_COLOUR
from quatlab.rendering import themes

pytestmark = pytest.mark.gl


@pytest.fixture
def view(qtbot):
    v = s3_view.S3View(LessonState.from_preset("negated-20", t=0.3))
    v.resize(1100, 700)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.close()
    sip.delete(v)
    QtWidgets.QApplication.processEvents()


def _luminance(rgb) -> float:
    return float(np.asarray(rgb[:3], float) @ [0.2126, 0.7152, 0.0722])


def _plain(label: QtWidgets.QLabel) -> str:
    doc = QtGui.QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


#: Words the text may use for the endpoint balls, with the luminance range of
#: the colour they stand for (hand-set: "black" is dark, "white" is light).
_WORDS = {"black": (0.0, 0.2), "dark grey": (0.1, 0.45), "grey": (0.3, 0.7),
          "light grey": (0.55, 0.9), "white": (0.75, 1.0)}


def _named(text: str) -> list[str]:
    words = []
    for w in sorted(_WORDS, key=len, reverse=True):
        if f" {w} " in f" {text} ":
            words.append(w)
            text = text.replace(w, "")
    return words


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast", "light"])
def test_the_endpoint_balls_are_named_in_the_colour_drawn(view, theme):
    theme_menu.apply_theme(view, "dark" if theme == "light" else "light")  # a switch
    theme_menu.apply_theme(view, theme)
    text = _plain(view.stereo.axis_angle).lower()
    ball = view.stereo.points["q0"].opts["color"]
    named = _named(text.split(":")[0])
    assert len(named) == 1, text
    lo, hi = _WORDS[named[0]]
    assert lo <= _luminance(ball) <= hi, (theme, named, ball)
    if themes.current().dark:
        assert "black" not in text


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_the_legend_names_the_ray_in_the_colour_drawn(view, theme):
    theme_menu.apply_theme(view, theme)
    text = _plain(view.legend).lower()
    ray = QtGui.QColor(themes.themed(GUIDE_COLOUR))
    (word,) = _named(text.split("pushed along")[1].split("onto")[0])
    lo, hi = _WORDS[word]
    assert lo <= _luminance(ray.getRgbF()) <= hi


def test_the_colour_is_named_in_chinese_too(view):
    i18n.set_language("zh_CN")
    try:
        theme_menu.apply_theme(view, "dark")
        assert "白色" in _plain(view.stereo.axis_angle)
        theme_menu.apply_theme(view, "light")
        assert "黑色" in _plain(view.stereo.axis_angle)
    finally:
        i18n.set_language("en")


def test_the_s3_texts_run_under_both_panels_and_leave_the_3d_view_its_height(qtbot):
    """In the 3D panel's own column (about 240 px at 1024 x 768) every table row
    wrapped to three lines and the 3D view was squeezed to a third of the tab's height."""
    v = s3_view.S3View(LessonState.from_preset("negated-20", t=0.5))
    qtbot.addWidget(v)
    v.resize(540, 610)  # the tab's size in a 1024 x 768 window
    v.show()
    qtbot.waitExposed(v)
    QtWidgets.QApplication.processEvents()
    gl = v.stereo.view.widget
    assert gl.height() >= 0.45 * v.height(), (gl.size(), v.size())  # it was 0.33
    table = v.stereo.axis_angle
    assert table.width() >= 0.9 * v.width()
    # One line per method row: the label is at most ~9 lines tall.
    line = table.fontMetrics().lineSpacing()
    assert table.heightForWidth(table.width()) <= 9.5 * line + 8


def test_legend_names_are_in_the_text_colour(qtbot):
    """Only a legend's swatch takes the method colour: orange names on the light
    window measured 1.96:1, a pale blue 2.0:1 (WCAG asks 4.5:1 of text)."""
    import re

    from quatlab.app.qt.window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    lessons = ("main", "squad", "blend", "euler", "integrate", "wrap", "keyframes")
    legends = [(name, win.views[name].legend.text()) for name in lessons]
    for name, html in legends:
        coloured = re.findall(r"<span style='color:[^']*'>(.*?)</span>", html)
        # Marks only (the diamond: a key's finding, gimbal lock, as the dope sheet draws it).
        assert coloured and set(coloured) <= {"■", "│", "●", "◆"}, (name, coloured)
