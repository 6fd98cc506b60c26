"""Formulas in the lesson explanations (integration, Euler angles) hold together on a projector.

At 1280x720 in Chinese the integration lesson began a line with the "²" of
"|q|²", at 1024x768 in English it broke "‖RᵀR − I‖" after "‖RᵀR", and the
Euler lesson ended a Chinese line with "（=". The checks lay out each
explanation as its label does (its width, its font) and read the lines:
no line ends or starts inside a formula, and each formula of a hand-written
list lies on one line.
"""

from __future__ import annotations

import pytest
from PyQt6 import QtGui, QtWidgets
from text_layout import formula_breaks, laid_out_lines

from quatlab.app import i18n
from quatlab.app.commands.screenshot import render_window
from quatlab.app.qt.window import MainWindow

pytestmark = pytest.mark.gl

#: The preset each view is shown on (None: its default).
PRESETS = {"integrate": None, "euler": "pitch90_lock"}
#: Formulas each view's explanation writes on it, as they read (hand-copied
#: from the presets: 20 Hz first order; pitch +90° in Y-X-Z).
FORMULAS = {
    ("integrate", "en"): ["‖RᵀR − I‖ = 1.6e−05", "|q|² = 1.361"],
    ("integrate", "zh_CN"): ["‖RᵀR − I‖ = 1.6e−05", "|q|² = 1.361"],
    ("euler", "en"): ["(= 20.0°)", "t = 0.50"],
    ("euler", "zh_CN"): ["（= 20.0°）", "t = 0.50"],
}


def _label_lines(label: QtWidgets.QLabel) -> list[str]:
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml(label.text())
    doc.setTextWidth(label.contentsRect().width())
    doc.size()  # lays it out
    return laid_out_lines(doc)


@pytest.fixture(params=["en", "zh_CN"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
@pytest.mark.parametrize("view", ["integrate", "euler"])
def test_lesson_explanations_break_between_words_only(qtbot, lang, view, size):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show_view(view)
    if PRESETS[view] is not None:
        win.views[view].model.set_preset(PRESETS[view])
        win.views[view].model.set_param(0.5)  # "t = 0.50" in the text
    render_window(win, size)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    label = win.views[view].explanation
    lines = _label_lines(label)
    assert len(lines) >= 2, lines   # it wraps: there are line ends to look at
    assert formula_breaks(lines) == []
    text = "".join(lines)
    for f in FORMULAS[view, lang]:
        assert f in text, (f, lines)
        assert any(f in s for s in lines), (f"{f!r} is split over lines", lines)


def test_norms_superscripts_and_full_width_brackets_are_glued():
    from quatlab.app.model.explain import glue_formulas

    wj, nb = "\u2060", "\u00a0"
    assert glue_formulas("by |q|² = 1.361") == f"by |{wj}q{wj}|{wj}²{nb}={nb}1.361"
    assert glue_formulas("R: ‖RᵀR − I‖ = 1e-5") == f"R: ‖{wj}R{wj}ᵀR{nb}−{nb}I{wj}‖{nb}={nb}1e−5"
    assert glue_formulas("起作用（= 20.0°）；") == f"起作用（{wj}={nb}20.0°）；"
    # Glued twice is glued once (a model may glue its own text before the label does).
    for text in ("|q| − 1 and |q|²", "‖RᵀR − I‖", "（= 20.0°）"):
        assert glue_formulas(glue_formulas(text)) == glue_formulas(text)
    # The bars of "| |q| − 1 |" around spaced terms are not a norm of their own.
    assert glue_formulas("| |q| − 1 |").startswith("| |")
