"""The finding families' colours in every theme: 3:1 for marks, 4.5:1 for text (WCAG 2), apart.

The oracle is the WCAG contrast of tests/oracles.py, written from the
definition; the backgrounds are the dope sheet's own row shades (plain,
every other row, the selected row) and the plots' background the timeline
draws on.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from oracles import contrast_8bit

from quatlab.app.model.finding_families import FAMILIES
from quatlab.rendering import themes

pytest.importorskip("PyQt6")
from quatlab.app.qt.dope_sheet import row_shades  # noqa: E402  (needs Qt, not a display)


def rgb(colour) -> np.ndarray:
    h = colour if isinstance(colour, str) else colour.name()
    return np.array([int(h[i:i + 2], 16) for i in (1, 3, 5)])


@pytest.mark.parametrize("theme", list(themes.THEMES.values()), ids=list(themes.THEMES))
def test_every_mark_has_three_to_one_on_every_row_shade(theme):
    backgrounds = {**{k: rgb(c) for k, c in row_shades(theme).items()},
                   "plot": rgb(theme.background)}
    assert set(theme.findings) == set(FAMILIES)
    for family, colour in theme.findings.items():
        for where, bg in backgrounds.items():
            assert contrast_8bit(rgb(colour), bg) >= 3.0, (theme.name, family, where)
    # The key ticks and the time line are marks too.
    for role in ("muted", "cursor"):
        for where, bg in backgrounds.items():
            assert contrast_8bit(rgb(getattr(theme, role)), bg) >= 3.0, (role, where)


@pytest.mark.parametrize("theme", list(themes.THEMES.values()), ids=list(themes.THEMES))
def test_the_text_on_the_rows_has_four_and_a_half_to_one(theme):
    # Names and counts in the text colour; the joints shown only for their place in grey.
    for where, bg in row_shades(theme).items():
        for role in ("foreground", "muted"):
            assert contrast_8bit(rgb(getattr(theme, role)), rgb(bg)) >= 4.5, (role, where)


@pytest.mark.parametrize("theme", list(themes.THEMES.values()), ids=list(themes.THEMES))
def test_the_families_differ_from_each_other(theme):
    # Apart enough to be told apart side by side (a plain RGB distance floor; the
    # shapes, a bar or a diamond, and the legend's names carry the rest).
    for a, b in itertools.combinations(FAMILIES, 2):
        d = np.linalg.norm(rgb(theme.findings[a]) - rgb(theme.findings[b]))
        assert d >= 60, (theme.name, a, b, d)


@pytest.mark.parametrize("theme", list(themes.THEMES.values()), ids=list(themes.THEMES))
def test_the_legend_swatches_turn_into_the_marks_colours(theme):
    # The legend is rich text in light colours that the theme walk rewrites with
    # Theme.colour: it must land on the colour the dope sheet draws with.
    for family in FAMILIES:
        assert theme.colour(themes.LIGHT.findings[family]) == theme.findings[family]
