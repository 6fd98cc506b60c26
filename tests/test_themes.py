"""The theme palettes keep the method colours apart and legible (docs/curves.md, "Themes").

Measured, not eyeballed: WCAG 2 contrast ratios against the plot and 3D
backgrounds, and the CIE 1976 colour difference (Delta E*ab in CIELAB, D65)
between every pair of method colours, with normal vision and under the
protanopia, deuteranopia and tritanopia simulations of Machado, Oliveira &
Fernandes (2009), severity 1.0 (docs/sources.md). The colour science below is
written from the standards and checked against their published values, not
taken from the code under test.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from quatlab.rendering import style, themes

# -- colour science from the standards ------------------------------------------------------


def hex_rgb(hex_colour: str) -> np.ndarray:
    """"#RRGGBB" as sRGB components in [0, 1]."""
    h = hex_colour.lstrip("#")
    return np.array([int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4)])


def srgb_to_linear(hex_colour: str) -> np.ndarray:
    """IEC 61966-2-1 sRGB decoding."""
    c = hex_rgb(hex_colour)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def relative_luminance(linear: np.ndarray) -> float:
    """WCAG 2 relative luminance of linear sRGB."""
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05), lighter over darker."""
    la, lb = sorted((relative_luminance(srgb_to_linear(a)),
                     relative_luminance(srgb_to_linear(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_RGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                        [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def lab(linear: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of linear sRGB."""
    t = (_RGB_TO_XYZ @ linear) / _D65
    d = 6.0 / 29.0
    f = np.where(t > d ** 3, np.cbrt(t), t / (3 * d * d) + 4.0 / 29.0)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


#: Machado et al. 2009, Table 1, severity 1.0, applied to linear RGB.
MACHADO = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
VISIONS = {"normal": np.eye(3), **MACHADO}


def delta_e(a: str, b: str, vision: str = "normal") -> float:
    m = VISIONS[vision]
    la = lab(np.clip(m @ srgb_to_linear(a), 0.0, 1.0))
    lb = lab(np.clip(m @ srgb_to_linear(b), 0.0, 1.0))
    return float(np.linalg.norm(la - lb))


def test_the_colour_science_matches_the_published_values():
    # WCAG: black on white is 21:1; sRGB red is L*a*b* (53.24, 80.09, 67.20).
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    np.testing.assert_allclose(lab(srgb_to_linear("#FF0000")), [53.24, 80.09, 67.20], atol=0.02)
    np.testing.assert_allclose(lab(srgb_to_linear("#FFFFFF")), [100.0, 0.0, 0.0], atol=0.01)
    for m in MACHADO.values():  # each simulation keeps white white and grey grey
        np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=1e-5)
    # A protanope cannot tell pure red from a dark yellow-green of the same
    # lightness as well as a normal viewer can: the difference shrinks.
    assert delta_e("#FF0000", "#00A000", "protanopia") < 0.5 * delta_e("#FF0000", "#00A000")


# -- the palettes ---------------------------------------------------------------------------

ALL = list(themes.THEMES.values())
PAIRS = list(itertools.combinations(style.METHODS, 2))

#: Least Delta E*ab between two method colours: normal vision, simulated deficiency.
MIN_DELTA_E = {"normal": 40.0, "protanopia": 15.0, "deuteranopia": 15.0, "tritanopia": 15.0}


def test_the_themes_are_light_dark_and_high_contrast_and_light_is_todays_look():
    assert list(themes.THEMES) == ["light", "dark", "high-contrast"]
    assert themes.LIGHT.methods == style.METHOD_COLORS
    assert themes.LIGHT.background == style.BACKGROUND
    assert themes.LIGHT.scene == style.SCENE_BACKGROUND
    assert themes.HIGH_CONTRAST.background == "#000000"
    assert themes.HIGH_CONTRAST.foreground == "#FFFFFF"
    assert themes.HIGH_CONTRAST.line_scale > themes.LIGHT.line_scale
    # No pale ghosts: one layer of high contrast's stands out the most from its scene.
    one_layer = {t.name: contrast(_over(t.ghost, t.ghost_alpha, t.scene), t.scene)
                 for t in themes.THEMES.values()}
    assert max(one_layer, key=one_layer.get) == "high-contrast", one_layer
    for t in ALL:
        assert set(t.methods) == set(style.METHODS)


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
@pytest.mark.parametrize("vision", list(VISIONS))
def test_method_colours_stay_apart(theme, vision):
    worst = min(delta_e(theme.methods[a], theme.methods[b], vision) for a, b in PAIRS)
    assert worst >= MIN_DELTA_E[vision], (theme.name, vision, worst)


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
def test_lines_and_text_have_contrast(theme):
    # Lines (method and axis colours) 3:1 against the plots (WCAG 1.4.11);
    # text 4.5:1 (WCAG 1.4.3) and secondary text too.
    # Light keeps today's Okabe-Ito orange for the "other" curves: 2.25:1 on white,
    # below the bar; the dark themes meet it.
    lines = [*theme.methods.values(), theme.cursor] + ([theme.accent] if theme.dark else [])
    for c in lines:
        assert contrast(c, theme.background) >= 3.0, (theme.name, c)
    for c in (theme.foreground, theme.muted, theme.error):
        assert contrast(c, theme.background) >= 4.5, (theme.name, c)
        assert contrast(c, theme.scene) >= 4.5, (theme.name, c)
    if theme.dark:  # the 3D labels are drawn in the method colours on the scene
        for c in [*theme.methods.values(), *theme.axes]:
            assert contrast(c, theme.scene) >= 3.0, (theme.name, c)


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
def test_the_dark_themes_keep_the_okabe_ito_hues(theme):
    # Lightness changes; the hue angle in CIELAB stays within 25 degrees.
    for m, light in style.METHOD_COLORS.items():
        a = lab(srgb_to_linear(light))
        b = lab(srgb_to_linear(theme.methods[m]))
        diff = abs((np.degrees(np.arctan2(a[2], a[1]) - np.arctan2(b[2], b[1])) + 180) % 360
                   - 180)
        assert diff <= 25.0, (theme.name, m, diff)


def test_colour_translates_light_colours_and_keeps_others():
    for t in ALL:
        for m in style.METHODS:
            assert t.colour(style.METHOD_COLORS[m]) == t.methods[m]
            assert t.colour(style.METHOD_COLORS[m].lower()) == t.methods[m]
        assert t.colour(style.FOREGROUND) == t.foreground
        assert t.colour("white") == t.background
        assert t.colour("#123456") == "#123456"  # no role: kept
    # Dark themes turn dark greys meant for white into light greys; light keeps them.
    assert themes.LIGHT.colour("#404040") == "#404040"
    assert contrast(themes.DARK.colour("#404040"), themes.DARK.background) >= 4.5
    assert themes.HIGH_CONTRAST.colour("#000000") == "#000000"  # text on a yellow highlight
    with pytest.raises(ValueError, match="unknown theme 'sepia'"):
        themes.theme_named("sepia")


# -- every lesson's curves, as each theme draws them ----------------------------------------

#: The lessons whose plots draw curves of their own colours (beyond the four
#: methods), by module: each holds COLOURS, one light-palette colour per curve.
LESSONS = ("track_view", "blend_view", "euler_view", "wrap_view", "integrate_view",
           "same_keys_view")
#: Least Delta E*ab between two curves of one plot (a lesson draws at most four).
MIN_LESSON_DELTA_E = {"normal": 20.0, "protanopia": 10.0, "deuteranopia": 10.0,
                      "tritanopia": 10.0}


def _lesson_colours(module: str) -> dict[str, str]:
    import importlib

    return importlib.import_module(f"quatlab.app.qt.{module}").COLOURS


@pytest.mark.parametrize("module", LESSONS)
@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
@pytest.mark.parametrize("vision", list(VISIONS))
def test_each_lessons_curves_stay_apart(module, theme, vision):
    """Each from the others and from the plots' cursor (the engines' Unreal grey was
    white on high contrast, as the cursor is)."""
    drawn = {k: theme.colour(c) for k, c in _lesson_colours(module).items()}
    drawn["cursor"] = theme.cursor
    assert len(drawn) >= 2
    worst = min((delta_e(drawn[a], drawn[b], vision), a, b)
                for a, b in itertools.combinations(drawn, 2))
    assert worst[0] >= MIN_LESSON_DELTA_E[vision], (module, theme.name, vision, worst)


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
def test_the_squad_curves_are_the_themes_colours(theme):
    # The SQUAD lesson names its colours by role, so a theme draws them with
    # its own sky blue and orange (in the dark themes, not the light ones).
    drawn = {k: theme.colour(c) for k, c in _lesson_colours("track_view").items()}
    assert drawn == {"nlerp": theme.methods["shortest_nlerp"],
                     "slerp": theme.methods["shortest_slerp"],
                     "squad": theme.sky if theme.dark else themes.PETROL,
                     "squad_unaware": theme.accent}
    if theme.dark:  # light keeps today's Okabe-Ito orange, and draws SQUAD petrol
        assert theme.sky != themes.LIGHT.sky
        assert contrast(theme.sky, theme.background) >= 3.0


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
@pytest.mark.parametrize("vision", list(VISIONS))
def test_the_squad_lessons_3d_trails_stay_apart(theme, vision):
    """The trails as the 3D view draws them at full strength (a colour under 4:1 on
    the scene deepened towards black or white): the light sky blue became a steel
    blue 16.8 Delta E from piecewise NLERP's blue trail beside it (4.2 for a
    tritanope), and the two read as one mid blue."""
    from quatlab.rendering.trail_shape import trail_colours

    drawn = {}
    for k, c in _lesson_colours("track_view").items():
        ink = trail_colours(hex_rgb(theme.colour(c)), hex_rgb(theme.scene), np.array([1.0]))[0]
        drawn[k] = "#" + "".join(f"{round(v * 255):02X}" for v in ink)
    worst = min((delta_e(drawn[a], drawn[b], vision), a, b)
                for a, b in itertools.combinations(drawn, 2))
    assert worst[0] >= MIN_LESSON_DELTA_E[vision], (theme.name, vision, worst, drawn)


def _over(colour: str, alpha: float, background: str) -> str:
    """``colour`` at opacity ``alpha`` over ``background`` (sRGB blending, as GL does)."""
    c, b = (255.0 * hex_rgb(h) for h in (colour, background))
    return "#" + "".join(f"{round(v):02X}" for v in alpha * c + (1 - alpha) * b)


@pytest.mark.parametrize("theme", [themes.DARK, themes.HIGH_CONTRAST], ids=lambda t: t.name)
def test_ghosts_stand_out_from_the_scene_and_stay_fainter_than_the_chains(theme):
    """One layer of a ghost over the 3D background: 3:1 at least (WCAG 1.4.11; the old
    dark grey at 28 % was 1.65:1), and below every opaque method colour's contrast."""
    ghost = _over(theme.ghost, theme.ghost_alpha, theme.scene)
    ratio = contrast(ghost, theme.scene)
    assert ratio >= 3.0, (theme.name, ghost, ratio)
    least = min(contrast(c, theme.scene) for c in theme.methods.values())
    assert ratio <= 0.85 * least, (theme.name, ratio, least)


@pytest.mark.parametrize("module", LESSONS)
def test_high_contrast_draws_each_lessons_curves_as_strongly_as_its_methods(module):
    """three.js' purple was the light one on high contrast's black, 4.7:1, where the
    engines' other curves were 8-21:1: no curve there is fainter than the faintest
    method colour (8.05:1)."""
    theme = themes.HIGH_CONTRAST
    least = min(contrast(c, theme.background) for c in theme.methods.values())
    for k, c in _lesson_colours(module).items():
        drawn = theme.colour(c)
        assert contrast(drawn, theme.background) >= least - 1e-9, (module, k, drawn, least)


def _plot_curves() -> dict[str, dict[str, str]]:
    """Light colours of the curves of one plot each, beside the cursor: the Euler tab's
    two plots (the lerp and SLERP; SLERP's readout, an angle each) and the blending
    tab's reference pose."""
    from quatlab.app.qt.blend_view import REFERENCE_COLOUR
    from quatlab.rendering.gimbal import ANGLE_COLOURS

    return {"euler angle": _lesson_colours("euler_view"),
            "euler readout": {f"angle {i}": c for i, c in enumerate(ANGLE_COLOURS)},
            "blend reference": {"reference": REFERENCE_COLOUR}}


@pytest.mark.parametrize("plot", list(_plot_curves()))
@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
def test_the_cursor_and_each_curve_of_a_plot_stay_apart_and_read(plot, theme):
    """The Euler readout's first angle and the blending's reference pose were the text
    colour, as the cursor is: both near-black in light (Delta E 9), both white in high
    contrast (0). Every curve 3:1 on the plot, the cursor's too, in every theme (the
    Euler lerp's orange and the readout's sky blue were 2.25 and 2.31:1 in light)."""
    drawn = {k: theme.colour(c) for k, c in _plot_curves()[plot].items()}
    drawn["cursor"] = theme.cursor
    for k, c in drawn.items():
        assert contrast(c, theme.background) >= 3.0, (plot, theme.name, k, c)
    for vision in VISIONS:
        worst = min((delta_e(drawn[a], drawn[b], vision), a, b)
                    for a, b in itertools.combinations(drawn, 2))
        assert worst[0] >= MIN_LESSON_DELTA_E[vision], (plot, theme.name, vision, worst)


@pytest.mark.parametrize("theme", ALL, ids=lambda t: t.name)
def test_the_ghost_labels_read_as_text_and_as_strongly_as_the_themes_marks(theme):
    """The "t = 0" and "t = 1" labels were a grey of no role, which the dark themes
    turn into its light twin: 7.4:1 on high contrast's black, beside text at 21:1
    and the faint marks at 14.7:1. As text: 4.5:1 at least on the 3D scene, and no
    weaker than the theme's faint marks."""
    from quatlab.rendering.chain_ghosts import GHOST_LABEL_COLOUR

    drawn = theme.colour(GHOST_LABEL_COLOUR)
    ratio = contrast(drawn, theme.scene)
    assert ratio >= 4.5, (theme.name, drawn, ratio)
    assert ratio >= contrast(theme.faint, theme.scene), (theme.name, drawn, ratio)
