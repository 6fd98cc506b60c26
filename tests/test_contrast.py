"""Contrast helpers (rendering/contrast.py) and the 3D labels' text colour on the light scene."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quatlab.rendering.contrast import contrast_ratio, deepen
from quatlab.rendering.style import SCENE_BACKGROUND, rgba

LIGHT_SCENE = np.array(rgba(SCENE_BACKGROUND)[:3])
unit = st.floats(0.0, 1.0)
colour = st.tuples(unit, unit, unit).map(np.array)


def test_contrast_by_hand():
    # WCAG 2: mid grey #777777 on white is 4.48:1 (the usual worked example).
    g = 0x77 / 255
    assert float(contrast_ratio([g, g, g], [1, 1, 1])) == pytest.approx(4.48, abs=0.01)
    assert float(contrast_ratio([1, 1, 1], [1, 1, 1])) == 1.0


@given(colour, colour, st.floats(1.0, 7.0))
def test_deepen_reaches_the_ratio_or_goes_all_the_way(c, bg, ratio):
    out = deepen(c, bg, ratio)
    assert np.all((out >= -1e-12) & (out <= 1 + 1e-12))
    if float(contrast_ratio(c, bg)) >= ratio:
        np.testing.assert_array_equal(out, c)  # already readable: unchanged
    else:
        # Towards black on a light background, white on a dark one; it stops at
        # the first mix that reads, or at black / white when none does.
        from quatlab.rendering.contrast import luminance

        away = np.zeros(3) if float(luminance(bg)) > 0.18 else np.ones(3)
        if float(contrast_ratio(out, bg)) < ratio:
            np.testing.assert_allclose(out, away, atol=1e-12)
        # Each channel moved straight towards ``away``, never past it.
        assert np.all(np.abs(out - away) <= np.abs(c - away) + 1e-12)


@pytest.mark.parametrize("chain_colour", ["#C4C4C8", "#E69F00", "#F0E442", "#56B4E9", "#0072B2"])
def test_chain_labels_read_on_the_light_scene(qtbot, chain_colour):
    # The Pose blending tab draws its input poses in #C4C4C8: their labels
    # were 0.8 of it, #9D9DA0, 2.6:1 on the light scene.
    from quatlab.rendering import themes
    from quatlab.rendering.chain_scene import TEXT_CONTRAST, ChainScene

    assert not themes.current().dark
    scene = ChainScene()
    qtbot.addWidget(scene.widget)
    scene.set_chain("a", [1.0, 0.0, 0.0, 0.0], chain_colour)
    text = scene._chains["a"].label.color.getRgbF()[:3]
    assert float(contrast_ratio(text, LIGHT_SCENE)) >= TEXT_CONTRAST


def _hex_rgb(colour: str) -> list[float]:
    return [int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5)]


@pytest.fixture
def theme_back():
    from quatlab.rendering import themes

    yield themes
    themes.set_current("light")


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_method_names_as_text_read_in_every_theme(qtbot, theme_back, theme):
    # The readouts' method names and the 3D labels are drawn in the method
    # colours; on the light theme naive SLERP's pink was 3.0:1 on the table's
    # white and 2.8:1 on the scene.
    from PyQt6 import QtGui

    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.readouts import Readouts
    from quatlab.app.qt.theme_menu import _restyle_table
    from quatlab.math.curves import METHODS
    from quatlab.rendering.labels import text_ink
    from quatlab.rendering.style import METHOD_COLORS

    themes = theme_back
    themes.set_current(theme)
    t = themes.current()
    r = Readouts(LessonState.from_preset("negated-20"))
    qtbot.addWidget(r)
    for _round in range(2):  # as built, and after a restyle (a theme walk)
        for m in METHODS:
            shown = r.cell(m, "name").foreground().color().name()
            assert float(contrast_ratio(_hex_rgb(shown), _hex_rgb(t.background))) >= 4.5, (m, shown)
        _restyle_table(r.table)
    for m in METHODS:
        drawn = text_ink(QtGui.QColor(METHOD_COLORS[m])).name()
        assert float(contrast_ratio(_hex_rgb(drawn), _hex_rgb(t.scene))) >= 4.5, (m, drawn)


def test_a_theme_round_trip_gives_the_theme_its_own_colours_back(qtbot, theme_back):
    from quatlab.app.model.state import LessonState
    from quatlab.app.qt.readouts import Readouts
    from quatlab.app.qt.theme_menu import _restyle_table

    themes = theme_back
    r = Readouts(LessonState.from_preset("negated-20"))
    qtbot.addWidget(r)
    light = r.cell("naive_slerp", "name").foreground().color().name()
    themes.set_current("dark")
    _restyle_table(r.table)
    dark = r.cell("naive_slerp", "name").foreground().color().name()
    # The dark theme's own pink (light enough as it is), not a lightened deep pink.
    assert dark.upper() == themes.current().colour("#CC79A7").upper()
    themes.set_current("light")
    _restyle_table(r.table)
    assert r.cell("naive_slerp", "name").foreground().color().name() == light
