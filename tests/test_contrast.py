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
