"""WCAG 2 contrast of sRGB colours, and deepening a colour until it reads on a background.

Numpy only. Used for what the 3D scene draws in a chain's colour on the scene
background: trails (:mod:`quatlab.rendering.trail_shape`) and label text
(:mod:`quatlab.rendering.chain_scene`). Colours are RGB ``(..., 3)`` in [0, 1].
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["luminance", "contrast_ratio", "least_mix", "deepen", "readable", "TEXT_CONTRAST"]


def luminance(rgb) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB colours ``(..., 3)`` in [0, 1]."""
    c = np.asarray(rgb, dtype=np.float64)
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def contrast_ratio(a, b) -> np.ndarray:
    """WCAG 2 contrast ratio of sRGB colours ``a`` and ``b`` ``(..., 3)`` in [0, 1].

    >>> float(contrast_ratio([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]))
    21.0
    """
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def least_mix(start, end, background, ratio: float) -> float:
    """The least f in [0, 1] with ``start + f (end - start)`` at ``ratio`` against ``background``.

    1 if none reaches it. Meant for mixes that move away from the background
    (contrast grows along them); f is found on a grid of 1/256.
    """
    start, end = np.asarray(start, dtype=np.float64), np.asarray(end, dtype=np.float64)
    f = np.linspace(0.0, 1.0, 257)
    ok = np.flatnonzero(contrast_ratio(start + f[:, None] * (end - start), background) >= ratio)
    return float(f[ok[0]]) if len(ok) else 1.0


def deepen(colour, background, ratio: float) -> np.ndarray:
    """``colour`` mixed towards black (white on a dark background) until it has ``ratio``.

    A colour that already has it comes back unchanged.

    >>> grey = deepen([0.75, 0.75, 0.75], [0.96, 0.96, 0.95], 4.5)
    >>> bool(contrast_ratio(grey, [0.96, 0.96, 0.95]) >= 4.5), bool(grey[0] < 0.75)
    (True, True)
    """
    colour = np.asarray(colour, dtype=np.float64)[:3]
    bg = np.asarray(background, dtype=np.float64)[:3]
    away = np.zeros(3) if luminance(bg) > 0.18 else np.ones(3)
    return colour + least_mix(colour, away, bg, ratio) * (away - colour)


#: Least contrast of text drawn in a colour of its own (method names in tables,
#: 3D labels): WCAG 2 AA for text, which a projector's washed-out picture needs.
TEXT_CONTRAST = 4.5


@lru_cache(maxsize=256)
def readable(colour: str, background: str, ratio: float = TEXT_CONTRAST) -> str:
    """``"#RRGGBB"`` ``colour`` deepened (:func:`deepen`) to ``ratio`` on ``background``, as hex.

    Cached: it runs for every label of every frame, and themes have few colours.

    >>> readable("#CC79A7", "#FFFFFF")     # naive SLERP's pink, 3.0:1 on white
    '#A46186'
    >>> readable("#202020", "#FFFFFF")     # already readable: unchanged
    '#202020'
    """
    rgb = [int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5)]
    bg = [int(background[i:i + 2], 16) / 255.0 for i in (1, 3, 5)]
    if float(contrast_ratio(rgb, bg)) >= ratio:
        return colour.upper()
    out = deepen(rgb, bg, ratio)
    # Rounded down, away from the background, so the hex keeps the ratio.
    away_dark = luminance(bg) > 0.18
    ints = [int(np.floor(c * 255)) if away_dark else int(np.ceil(c * 255)) for c in out]
    return "#" + "".join(f"{v:02X}" for v in ints)
