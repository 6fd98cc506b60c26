"""Formulas in the lesson's explanation hold together at 1024x768: lines break between words only.

The "What you see" panel is at its narrowest on a 1024x768 projector, where
"dot(q0, q1) = −0.9848 <" once ended a line and "0" began the next. The
checks read the laid-out lines of the panel's own QTextDocument (and of the
sentence at t, laid out at its label's width), in English and Chinese: each
formula of a hand-written list lies on one line, and no line ends or starts
inside a formula (at an operator, or with a unit torn from its number).
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from PyQt6 import QtGui, QtWidgets
from text_layout import formula_breaks as _formula_breaks
from text_layout import laid_out_lines as _lines

from quatlab.app import i18n
from quatlab.app.model import explain as explain_module
from quatlab.app.model.state import LessonState
from quatlab.app.qt.window import MainWindow
from quatlab.math import quaternion as Q

#: Formulas of each case, as they read (no-break spaces shown as spaces), in
#: either language; the Chinese text says 点积 where the English says "dot".
FORMULAS = {
    "negated-20": {
        "both": ["dot(q0, q1) = −0.9848", "= 360° − 20.0°", "20.1 °/t", "20.0 °/t",
                 "t = 0.500"],
        "en": ["(dot > 0)"],
        "zh_CN": ["点积 > 0"],
    },
    "q-to-minus-q": {
        "both": ["q1 = −q0", "(1 − t)·q0 + t·q1", "(1 − 2t)·q0", "t = 0.5", "t = 0.500"],
        "en": ["(dot = −1.0000)"],
        "zh_CN": ["点积 = −1.0000"],
    },
    "half-turn": {
        "both": ["dot(q0, q1) = 0", "229.2 °/t", "180.0 °/t"],
        "en": ["dot < 0"],
        "zh_CN": ["点积 < 0"],
    },
    "small-1": {
        "both": ["dot(q0, q1) = 1.0000", "1.00001 °/t", "1.00 °/t"],
        "en": [], "zh_CN": [],
    },
    "rounding-error": {   # q1 a rounding error past the half turn: dot = -1e-07
        "both": ["dot(q0, q1) = −1.00e−07"],
        "en": ["dot < 0"],
        "zh_CN": ["点积 < 0"],
    },
}


def _state(case: str) -> LessonState:
    if case != "rounding-error":
        return LessonState.from_preset(case)
    s = LessonState.from_preset("half-turn")
    q1 = np.array([-1e-7, 1.0, 0.0, 0.0])
    s.set_endpoint(1, q1 / np.linalg.norm(q1))
    assert s.dot == pytest.approx(-1e-7)
    return s


def _assert_formulas_whole(lines: list[str], formulas: list[str], what: str) -> None:
    text = " ".join(lines)
    # Matched with the minus sign and the hyphen alike (an old text wrote "-0.9848").
    norm = [s.replace("−", "-") for s in lines]
    for f in formulas:
        g = f.replace("−", "-")
        assert g in text.replace("−", "-"), (what, f, lines)
        assert any(g in s for s in norm), (what, f"{f!r} is split over lines", lines)


@pytest.fixture(params=["en", "zh_CN"])
def window(qtbot, request):
    i18n.set_language(request.param)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show_view("main")
    # Below 1360 px the panel is hidden until shown (View > Explanation panel):
    # shown, it is at its narrowest here.
    win.set_panel_shown(1, True)
    win.resize(1024, 768)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)
    assert (win.width(), win.height()) == (1024, 768)
    win.lang = request.param
    return win


@pytest.mark.parametrize("case", list(FORMULAS))
def test_no_formula_breaks_across_lines_in_the_panel_at_1024x768(window, qtbot, case):
    win = window
    s = _state(case)
    win.state.set_endpoint(0, s.q0)
    win.state.set_endpoint(1, s.q1)
    win.state.set_t(0.5)
    QtWidgets.QApplication.processEvents()
    browser = win.explanation
    doc = browser.document()
    # The panel at its narrowest, and its text wraps: the check has lines to look at.
    assert browser.width() <= 200, browser.width()
    assert doc.textWidth() == browser.viewport().width()
    doc.size()
    lines = _lines(doc)
    assert len(lines) >= 8, lines
    assert not browser.horizontalScrollBar().isVisible()
    formulas = [f for f in FORMULAS[case]["both"] + FORMULAS[case][win.lang]
                if f != "t = 0.500"]
    assert _formula_breaks(lines) == []
    _assert_formulas_whole(lines, formulas, "panel")

    # The sentence at t, laid out as its label lays it out (its width, its font).
    label = win.explanation_t
    at = QtGui.QTextDocument()
    at.setDefaultFont(label.font())
    at.setDocumentMargin(0)
    at.setHtml(label.text())
    at.setTextWidth(label.contentsRect().width())
    at.size()  # lays it out
    at_lines = _lines(at)
    assert len(at_lines) >= 3, at_lines
    assert _formula_breaks(at_lines) == []
    _assert_formulas_whole(at_lines, ["t = 0.500"], "sentence at t")


def test_a_formula_is_glued_and_prose_is_not():
    glued = explain_module.glue_formulas("<b style='a: b'>dot(q0, q1) = -0.98</b> is below 0")
    assert glued == "<b style='a: b'>dot(q0,\u00a0q1)\u00a0=\u00a0−0.98</b> is below 0"
    # A unit stays with its number, and "°/t" does not break after "/".
    assert explain_module.glue_formulas("at 20.0 °/t now") == "at 20.0\u00a0°/\u2060t now"
    # Prose hyphens, an em dash and a negation sign without a right operand are kept.
    assert explain_module.glue_formulas("1024-px — q1 and −q1") == "1024-px — q1 and −q1"


def test_the_glue_doctest():
    assert doctest.testmod(explain_module).failed == 0


def test_a_rotation_a_rounding_error_past_half_a_turn_reads_as_one_formula():
    # Hand-made: 180° about x, nudged so that dot(q0, q1) = -1e-7 (a float a glTF file can hold).
    s = _state("rounding-error")
    first = explain_module.explain(s)[0]
    plain = first.replace("\u00a0", " ")
    assert "dot(q0, q1) = −1.00e−07" in plain
    assert np.isclose(np.degrees(Q.angle_between(s.q0, s.q1)), 180.0, atol=1e-4)
