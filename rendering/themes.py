"""The colour themes (light, dark, high contrast) and the zoom that every view draws with.

One :class:`Theme` per look, holding every colour a view needs by role: the
four method colours, the axis gizmo colours, backgrounds, text, grid,
secondary text, ghosts, the cursor, and the orange, sky blue and violet that the
lessons draw their other curves in. Views are written with the light
palette of :mod:`quatlab.rendering.style`; :meth:`Theme.colour` translates
one of those colours into the theme's (docs/curves.md, "Themes"), so a
colour is named once and a new theme is one more palette here.

The method colours keep the Okabe-Ito hues in every theme. On dark
backgrounds their lightness is raised (blue and reddish purple would
otherwise sink into the background) and spread apart so that, under
simulated protanopia, deuteranopia and tritanopia, every pair still differs
by a clear colour difference; tests/test_themes.py measures it. High contrast
draws on pure black with thicker lines and its ghosts the most opaque.

The ghosts (the t = 0 and t = 1 poses in the 3D scene) are drawn in their
theme's ``ghost`` colour at ``ghost_alpha`` (:meth:`Theme.ghost_rgba`, the one
place the scene takes them from), chosen so that on a rendered frame the
median ghost pixel is 3:1 at least on the 3D background (WCAG 1.4.11), yet
about two thirds of a live chain's contrast at most
(tests/test_theme_ghosts.py measures both; docs/curves.md, "Themes").

The current theme and scale are process-wide (one window per process):
:func:`current` and :func:`scale` are read when something is drawn;
:func:`set_current` is called by the window (View > Theme, View > Zoom) and
by the ``--theme``/``--scale`` options.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quatlab.app.i18n import N_, _
from quatlab.rendering import style

__all__ = ["Theme", "THEMES", "LIGHT", "DARK", "HIGH_CONTRAST", "theme_named", "current",
           "scale", "set_current", "DEFAULT_THEME", "themed", "colour_name", "LIGHT_DEEP",
           "PETROL"]

#: Light-theme colours used in the views beyond the named roles, by role.
#: Secondary text greys, the orange of the "other" curves, the error red.
LIGHT_EXTRAS = {
    "muted": ("#555555", "#555", "#505050", "#666666"),
    "faint": ("#888888", "#888", "#999999", "#AAAAAA"),
    "accent": ("#E69F00",),
    "error": ("#B00020",),
    "background": ("white", "#FFF", "w"),
}

#: Deeper light-theme shades of role colours, for curves that must keep 3:1 on the
#: light plots and 3D scene, where the Okabe-Ito sky blue and orange are 2.1:1 (the
#: engines lesson's six runtimes): drawn as they are in the light theme, as the
#: role's own colour in the dark ones. Chosen to stay apart from the lesson's other
#: colours under every simulated deficiency (tests/test_themes.py). The petrol (a dark
#: teal) is SQUAD's sky blue in the light theme: the 3D trails deepen a colour under
#: 4:1 towards black (:mod:`.trail_shape`), which took the sky blue to a steel blue
#: 16.8 Delta E from piecewise NLERP's blue trail beside it (4.2 for a tritanope); the
#: petrol is 6.7:1 on the 3D scene, drawn undeepened, 36.1 from that blue (13.1 for a
#: tritanope) and 34.0 from piecewise SLERP's green.
PETROL = "#006068"
LIGHT_DEEP = {"#0083F5": "sky", "#B86D37": "accent", PETROL: "sky"}


@dataclass(frozen=True)
class Theme:
    """Every colour of one look, by role, plus how thick it draws.

    Colours are ``"#RRGGBB"``. ``line_scale`` multiplies every line width
    and ``grid_alpha`` is the plots' grid opacity (0-255 scale as pyqtgraph's
    ``showGrid`` takes it divided by 255).
    """

    name: str
    title: str
    dark: bool
    methods: dict[str, str]
    axes: tuple[str, str, str]
    background: str          # plots and text panels
    foreground: str          # text, plot axes and ticks
    scene: str               # 3D clear colour
    grid: str                # 3D floor grid and plot grid lines
    muted: str               # secondary text (captions, hints)
    faint: str               # tertiary marks (ghost legend, reference lines)
    ghost: str               # the t = 0 and t = 1 ghosts in the 3D scene
    cursor: str              # the t cursor line in the plots
    accent: str              # the orange of "the other" curve (Euler, naive blend)
    error: str               # error messages
    sky: str                 # the sky blue of a lesson's third curve (SQUAD, align to first)
    #: A curve that is neither a method nor "the other" and must not be taken for the
    #: cursor (the Euler readout's first angle and its gimbal ring, the blending's
    #: reference pose, three.js): in the text colour it was the cursor's twin.
    violet: str
    disabled: str = "#A0A0A0"  # text and dashed frames of disabled widgets (dark themes)
    #: The audit's finding families (app/model/finding_families.py) as marks: 3:1 at least
    #: on ``background`` and on the dope sheet's row shades (tests/test_dope_sheet_theme.py).
    findings: dict = field(default_factory=dict)
    line_scale: float = 1.0
    grid_alpha: float = 0.15
    ghost_alpha: float = 0.5    # the ghosts' opacity (see ghost_rgba)
    #: Opacity of a flagged span's fill in a plot (the Keyframes tab's sign-flip band),
    #: drawn in its finding's colour between edges at full strength: on black a
    #: quarter of the orange was a dark brown at 1.4:1.
    band_alpha: float = 0.25
    _map: dict = field(default=None, compare=False, repr=False)

    def roles(self) -> dict[str, str]:
        """Role -> colour of the roles views name in light colours (the grid is set as such)."""
        out = {f"method:{m}": c for m, c in self.methods.items()}
        out.update({f"axis:{k}": c for k, c in enumerate(self.axes)})
        out.update({f"finding:{k}": c for k, c in self.findings.items()})
        for role in ("background", "foreground", "scene", "muted", "faint", "ghost",
                     "cursor", "accent", "error", "sky", "violet"):
            out[role] = getattr(self, role)
        return out

    def colour(self, light_colour: str) -> str:
        """The theme's colour for a colour of the light palette.

        Colours of no role are kept, except that a dark theme turns a dark
        grey (text meant for a light background) into the matching light grey.
        Pure black stays: the views use it for text on coloured highlights.

        >>> DARK.colour("#0072B2")        # shortest NLERP's blue, lightened
        '#4A9FE8'
        >>> DARK.colour("white"), DARK.colour("#123456"), DARK.colour("#404040")
        ('#17191D', '#123456', '#BFBFBF')
        """
        found = _translation(self).get(_key(light_colour))
        if found is not None:
            return found
        if self.dark and light_colour.startswith("#") and len(light_colour) == 7:
            rgb = [int(light_colour[i:i + 2], 16) for i in (1, 3, 5)]
            if max(rgb) - min(rgb) <= 16 and 0 < sum(rgb) < 3 * 128:
                return "#" + "".join(f"{255 - v:02X}" for v in rgb)
        return light_colour

    def ghost_rgba(self) -> tuple[float, float, float, float]:
        """The 3D ghosts' colour at their opacity, as GL floats.

        >>> LIGHT.ghost_rgba() == (52 / 255, 52 / 255, 58 / 255, LIGHT.ghost_alpha)
        True
        """
        r, g, b = (int(self.ghost[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
        return (r, g, b, self.ghost_alpha)


def _key(colour: str) -> str:
    c = colour.strip()
    return c.upper() if c.startswith("#") else c.lower()


def _translation(theme: Theme) -> dict[str, str]:
    if theme._map is None:
        light, mine = LIGHT.roles(), theme.roles()
        table = {}
        for role, names in LIGHT_EXTRAS.items():
            for n in names:
                table[_key(n)] = mine[role]
        for deep, role in LIGHT_DEEP.items():
            table[_key(deep)] = mine[role] if theme.dark else deep
        # Roles win over the extras where a light colour has both (e.g. white).
        for role, colour in light.items():
            table.setdefault(_key(colour), mine[role])
        object.__setattr__(theme, "_map", table)
    return theme._map


LIGHT = Theme(
    name="light", title=N_("Light"), dark=False,
    methods=dict(style.METHOD_COLORS), axes=tuple(style.AXIS_COLORS),
    background=style.BACKGROUND, foreground=style.FOREGROUND, scene=style.SCENE_BACKGROUND,
    grid="#000000", muted="#555555", faint="#888888", ghost="#34343A", cursor="#333333",
    accent="#E69F00", error="#B00020", sky="#56B4E9", violet="#7570B3",
    # Okabe-Ito hues, the yellow, purple and green deepened to 3:1 on the shaded rows;
    # a sign flip is naive NLERP's vermillion (the long way), a broken key the text's ink.
    findings={"sign_flip": "#D55E00", "half_turn": "#8C7A00", "euler_wrap": "#0072B2",
              "euler_flip": "#B5509A", "gimbal": "#00876A", "broken": "#202020",
              "other": "#707070"},
    # Ghosts: a dark grey at a little over half opacity, 3.1:1 on the scene as
    # drawn (the old grey at 20 % was 2.0:1), two thirds of the chains' 4.6:1.
    ghost_alpha=0.525,
)

DARK = Theme(
    name="dark", title=N_("Dark"), dark=True,
    # Okabe-Ito hues, lighter: blue and reddish purple spread apart in lightness
    # so that they stay apart under protanopia.
    methods={"naive_nlerp": "#FF7B3A", "shortest_nlerp": "#4A9FE8",
             "naive_slerp": "#F5B3E0", "shortest_slerp": "#33D6A0"},
    axes=("#FF6B5E", "#5BD16B", "#6FA0FF"),
    background="#17191D", foreground="#E8E8E8", scene="#202328",
    grid="#FFFFFF", muted="#B4B9BF", faint="#9AA0A6", ghost="#E8EAEE", cursor="#E0E0E0",
    # The orange leans to yellow and the sky blue is paler than shortest NLERP's
    # blue, so that both stay apart from the method colours a lesson draws them
    # with, also under deuteranopia.
    accent="#F0C040", error="#FF6B6B", sky="#A0D8FF", disabled="#80868D",
    # A lighter violet: the light one is 3.96:1 here, 6.82:1 this.
    violet="#B48CFF",
    findings={"sign_flip": "#FF7B3A", "half_turn": "#F0C040", "euler_wrap": "#4A9FE8",
              "euler_flip": "#F08BD0", "gimbal": "#33D6A0", "broken": "#E8E8E8",
              "other": "#A0A0A0"},
    # Ghosts: a near-white at about half opacity, 3.1:1 on the scene as drawn
    # (the old grey at 28 % was 1.7:1), two thirds of the opaque, coloured
    # chains' 4.6:1 in the lesson's 3D view beside its plots (at 50 % they were
    # 3.2:1, 0.71 of the chains; 3.5 of 5.4 when the view was wide and low).
    grid_alpha=0.18, ghost_alpha=0.48, band_alpha=0.35,
)

HIGH_CONTRAST = Theme(
    name="high-contrast", title=N_("High contrast"), dark=True,
    methods={"naive_nlerp": "#FF7A1A", "shortest_nlerp": "#3FA9FF",
             "naive_slerp": "#FFA8E0", "shortest_slerp": "#1AF0A8"},
    axes=("#FF5A4A", "#4BE05B", "#5C9DFF"),
    background="#000000", foreground="#FFFFFF", scene="#000000",
    grid="#FFFFFF", muted="#FFFFFF", faint="#D8D8D8", ghost="#E0E0E0", cursor="#FFFFFF",
    # Disabled text at a third of the white's luminance: still read from the
    # back row (6:1 on black), plainly not the white of what can be used.
    accent="#FFC020", error="#FF5555", sky="#A0D8FF", disabled="#8C8C8C",
    # 9.57:1 on black, near the other curves (8.05-14.1:1; the light violet was 4.72:1);
    # paler still it would close on the sky blue and the white for a tritanope.
    violet="#CC99FF",
    findings={"sign_flip": "#FF7A1A", "half_turn": "#FFD020", "euler_wrap": "#3FA9FF",
              "euler_flip": "#FF8CE0", "gimbal": "#1AF0A8", "broken": "#FFFFFF",
              "other": "#B0B0B0"},
    # Ghosts 4.0:1 as drawn, against the chains' 7.0:1.
    line_scale=1.8, grid_alpha=0.35, ghost_alpha=0.56, band_alpha=0.4,
)

#: Themes by name, in menu order.
THEMES = {t.name: t for t in (LIGHT, DARK, HIGH_CONTRAST)}
DEFAULT_THEME = "light"

_current = LIGHT
_scale = 1.0

def themed(colour: str) -> str:
    """A light-palette ``colour`` in the current theme."""
    return _current.colour(colour)


#: Colour words for explanatory text, by lightness for greys (upper bounds of L in HSL).
_GREYS = ((0.18, N_("black")), (0.40, N_("dark grey")), (0.65, N_("grey")),
          (0.85, N_("light grey")), (1.01, N_("white")))
#: ... and by hue (upper bounds in degrees) for colours.
_HUES = ((15, N_("red")), (45, N_("orange")), (70, N_("yellow")), (170, N_("green")),
         (260, N_("blue")), (290, N_("purple")), (345, N_("pink")), (361, N_("red")))
#: Chroma (max - min of r, g, b in [0, 1]) below which a colour reads as a grey.
_GREY_CHROMA = 0.12


def colour_name(colour: str) -> str:
    """The word for ``"#RRGGBB"`` in the current language, for text that names a colour.

    Text that says "the black balls" must say what is drawn: pass the
    colour the theme draws (:func:`themed`), not the light one.

    >>> colour_name("#202020"), colour_name(DARK.colour("#202020")), colour_name("#9A9A9A")
    ('black', 'white', 'grey')
    >>> colour_name("#D55E00"), colour_name("#0072B2")
    ('orange', 'blue')
    """
    rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255.0 for i in (0, 2, 4)]
    hi, lo = max(rgb), min(rgb)
    if hi - lo < _GREY_CHROMA:
        light = (hi + lo) / 2
        return _(next(word for bound, word in _GREYS if light < bound))
    r, g, b = rgb
    if hi == r:
        hue = (60.0 * (g - b) / (hi - lo)) % 360.0
    elif hi == g:
        hue = 60.0 * (b - r) / (hi - lo) + 120.0
    else:
        hue = 60.0 * (r - g) / (hi - lo) + 240.0
    return _(next(word for bound, word in _HUES if hue < bound))


def theme_named(name: str) -> Theme:
    """The theme called ``name``; ValueError naming the choices otherwise."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of: {', '.join(THEMES)}") from None


def current() -> Theme:
    """The theme views draw with now."""
    return _current


def scale() -> float:
    """The zoom factor views draw with now (1 = as designed): fonts, line widths, point sizes."""
    return _scale


def set_current(theme: Theme | str | None = None, zoom: float | None = None) -> None:
    """Make ``theme`` and/or ``zoom`` current (None keeps what is)."""
    global _current, _scale
    if theme is not None:
        _current = theme_named(theme) if isinstance(theme, str) else theme
    if zoom is not None:
        _scale = float(zoom)
