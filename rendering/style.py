"""Colours and line styles shared by every view: one colour per method (docs/curves.md).

Okabe-Ito colours, distinguishable with the common colour-vision deficiencies:
warm for the naive methods (they go the long way), cool for the shortest ones;
NLERP dashed, SLERP solid, so the pairs also differ in grey-scale prints.
"""

from __future__ import annotations

from quatlab.math.curves import METHOD_LABELS, METHODS

__all__ = ["METHODS", "METHOD_LABELS", "METHOD_COLORS", "METHOD_DASHED", "AXIS_COLORS",
           "rgba", "BACKGROUND", "FOREGROUND", "SCENE_BACKGROUND", "AXIS_TITLE_PT"]

#: Hex colour per method.
METHOD_COLORS = {
    "naive_nlerp": "#D55E00",     # vermillion
    "shortest_nlerp": "#0072B2",  # blue
    "naive_slerp": "#CC79A7",     # reddish purple
    "shortest_slerp": "#009E73",  # bluish green
}

#: NLERP curves are dashed, SLERP solid.
METHOD_DASHED = {m: m.endswith("nlerp") for m in METHODS}

#: Local axis gizmo colours: X red, Y green, Z blue.
AXIS_COLORS = ("#E03C31", "#3DAA4D", "#2F6FDE")

BACKGROUND = "#FFFFFF"
FOREGROUND = "#202020"
#: 3D viewport clear colour: a hair darker than the plots' white so the bones'
#: specular highlights keep an outline (the scene's docstring says why light).
SCENE_BACKGROUND = "#F5F5F3"
#: Every 2D plot's axis titles, at 100 % (the theme walk scales it with the zoom).
AXIS_TITLE_PT = "11pt"


def rgba(hex_colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """``"#RRGGBB"`` in the current theme as (r, g, b, a) floats in [0, 1] (for GL items).

    Colours are written in the light palette; the current theme
    (:mod:`quatlab.rendering.themes`) translates them, so items made under
    the dark theme get its colours.

    >>> rgba("#FF8000", 0.5)
    (1.0, 0.5019607843137255, 0.0, 0.5)
    """
    from quatlab.rendering import themes  # themes builds on this module

    h = themes.current().colour(hex_colour).lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    return (r, g, b, float(alpha))
